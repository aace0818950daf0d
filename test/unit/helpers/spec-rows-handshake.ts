/**
 * Hand-written examples for the methods every handshake revision (2024-11-05 … 2025-11-25) defines, the
 * same shape in each: the valid examples use only members all four revisions have, the invalid ones break
 * a member all four require or type the same way. What differs per revision is in each revision's own
 * table (test/unit/spec-<revision>.test.ts).
 */
import type { Row } from './spec-table.js';

const text = { type: 'text', text: 'hi' };

/** The rows shared by the handshake revisions. */
export function handshakeRows(protocolVersion: string): Row[] {
  return [
    {
      method: 'initialize',
      part: 'params',
      valid: { protocolVersion, capabilities: { roots: { listChanged: true }, sampling: {} }, clientInfo: { name: 'c', version: '1' } },
      invalid: { protocolVersion: 2025, capabilities: {}, clientInfo: { name: 'c' } },
      broken: ['/params/protocolVersion', '/params/clientInfo/version'],
      why: 'protocolVersion: string; Implementation.version: string',
    },
    {
      method: 'initialize',
      part: 'result',
      valid: { protocolVersion, capabilities: { tools: { listChanged: true }, logging: {}, experimental: { 'x.y': { on: 1 } } }, serverInfo: { name: 's', version: '1' }, instructions: 'use me' },
      invalid: { protocolVersion, capabilities: { tools: true, prompts: { listChanged: 'yes' } }, serverInfo: { name: 's' } },
      broken: ['/result/capabilities/tools', '/result/capabilities/prompts/listChanged', '/result/serverInfo/version'],
      why: 'tools?: {listChanged?: boolean}; prompts.listChanged?: boolean; serverInfo: Implementation',
    },
    { method: 'ping', part: 'params', valid: undefined, invalid: 'now', broken: ['/params'], why: 'params?: object' },
    { method: 'ping', part: 'result', valid: {}, invalid: 5, broken: ['/result'], why: 'EmptyResult is a Result (an object)' },
    { method: 'resources/list', part: 'params', valid: { cursor: 'c1' }, invalid: { cursor: 5 }, broken: ['/params/cursor'], why: 'cursor?: Cursor (string)' },
    {
      method: 'resources/list',
      part: 'result',
      valid: { resources: [{ uri: 'file:///a.md', name: 'a', mimeType: 'text/markdown', size: 12, annotations: { audience: ['user'], priority: 0.5 } }], nextCursor: 'n' },
      invalid: { resources: [{ uri: 'file:///a.md', size: '12' }] },
      broken: ['/result/resources/0/name', '/result/resources/0/size'],
      why: 'Resource.name: string; size?: number',
    },
    { method: 'resources/templates/list', part: 'params', valid: {}, invalid: { cursor: null }, broken: ['/params/cursor'], why: 'cursor?: string' },
    {
      method: 'resources/templates/list',
      part: 'result',
      valid: { resourceTemplates: [{ uriTemplate: 'file:///{path}', name: 'files' }] },
      invalid: { resourceTemplates: [{ name: 'files' }] },
      broken: ['/result/resourceTemplates/0/uriTemplate'],
      why: 'ResourceTemplate.uriTemplate: string',
    },
    { method: 'resources/read', part: 'params', valid: { uri: 'file:///a.md' }, invalid: {}, broken: ['/params/uri'], why: 'uri: string' },
    {
      method: 'resources/read',
      part: 'result',
      valid: { contents: [{ uri: 'file:///a.md', mimeType: 'text/markdown', text: '# a' }, { uri: 'file:///b.bin', blob: 'AAEC' }] },
      invalid: { contents: [{ text: '# a' }, { uri: 'file:///b.bin' }] },
      broken: ['/result/contents/0/uri', '/result/contents/1'],
      why: 'ResourceContents.uri: string; TextResourceContents.text or BlobResourceContents.blob',
    },
    { method: 'resources/subscribe', part: 'params', valid: { uri: 'file:///a.md' }, invalid: { uri: 1 }, broken: ['/params/uri'], why: 'uri: string' },
    { method: 'resources/subscribe', part: 'result', valid: {}, invalid: 'ok', broken: ['/result'], why: 'EmptyResult' },
    { method: 'resources/unsubscribe', part: 'params', valid: { uri: 'file:///a.md' }, invalid: { url: 'file:///a.md' }, broken: ['/params/uri'], why: 'uri: string' },
    { method: 'resources/unsubscribe', part: 'result', valid: {}, invalid: [], broken: ['/result'], why: 'EmptyResult is an object' },
    { method: 'prompts/list', part: 'params', valid: undefined, invalid: { cursor: ['c'] }, broken: ['/params/cursor'], why: 'cursor?: string' },
    {
      method: 'prompts/list',
      part: 'result',
      valid: { prompts: [{ name: 'greet', description: 'd', arguments: [{ name: 'who', required: true }] }] },
      invalid: { prompts: [{ name: 'greet', arguments: [{ required: 'yes' }] }] },
      broken: ['/result/prompts/0/arguments/0/name', '/result/prompts/0/arguments/0/required'],
      why: 'PromptArgument.name: string; required?: boolean',
    },
    { method: 'prompts/get', part: 'params', valid: { name: 'greet', arguments: { who: 'me' } }, invalid: { name: 'greet', arguments: { who: 1 } }, broken: ['/params/arguments/who'], why: 'arguments?: {[key]: string}' },
    {
      method: 'prompts/get',
      part: 'result',
      valid: { description: 'd', messages: [{ role: 'user', content: text }, { role: 'assistant', content: { type: 'resource', resource: { uri: 'file:///a', text: 'x' } } }] },
      invalid: { messages: [{ role: 'system', content: text }, { role: 'user' }] },
      broken: ['/result/messages/0/role', '/result/messages/1/content'],
      why: 'Role is "user" | "assistant"; PromptMessage.content is required',
    },
    { method: 'tools/list', part: 'params', valid: { cursor: 'next' }, invalid: { cursor: 2 }, broken: ['/params/cursor'], why: 'cursor?: string' },
    {
      method: 'tools/list',
      part: 'result',
      valid: { tools: [{ name: 'echo', description: 'd', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } }] },
      invalid: { tools: [{ name: 'echo', inputSchema: { type: 'string' } }, { description: 'no name', inputSchema: { type: 'object', required: 'a' } }] },
      broken: ['/result/tools/0/inputSchema/type', '/result/tools/1/name', '/result/tools/1/inputSchema/required'],
      why: 'inputSchema.type: "object"; Tool.name: string; required?: string[]',
    },
    { method: 'tools/call', part: 'params', valid: { name: 'echo', arguments: { message: 'hi' } }, invalid: { arguments: { message: 'hi' } }, broken: ['/params/name'], why: 'name: string' },
    {
      method: 'tools/call',
      part: 'result',
      valid: { content: [text, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }], isError: false },
      invalid: { content: [{ type: 'text' }, { type: 'image', data: 'iVBORw0KGgo=' }], isError: 'no' },
      broken: ['/result/content/0/text', '/result/content/1/mimeType', '/result/isError'],
      why: 'TextContent.text: string; ImageContent.mimeType: string; isError?: boolean',
    },
    { method: 'tools/call', part: 'result', label: 'content is required', valid: { content: [] }, invalid: { isError: true }, broken: ['/result/content'], why: 'CallToolResult.content: (…)[] has no "?"' },
    { method: 'logging/setLevel', part: 'params', valid: { level: 'warning' }, invalid: { level: 'verbose' }, broken: ['/params/level'], why: 'LoggingLevel is one of eight names' },
    { method: 'logging/setLevel', part: 'result', valid: {}, invalid: true, broken: ['/result'], why: 'EmptyResult' },
    {
      method: 'completion/complete',
      part: 'params',
      valid: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'm' } },
      invalid: { ref: { type: 'ref/tool', name: 'greet' }, argument: { name: 'who' } },
      broken: ['/params/ref/type', '/params/argument/value'],
      why: 'ref is a PromptReference or a resource reference; argument.value: string',
    },
    {
      method: 'completion/complete',
      part: 'result',
      valid: { completion: { values: ['me', 'you'], total: 2, hasMore: false } },
      invalid: { completion: { values: Array.from({ length: 101 }, (_, i) => `v${i}`), hasMore: 'no' } },
      broken: ['/result/completion/values', '/result/completion/hasMore'],
      why: 'values "Must not exceed 100 items"; hasMore?: boolean',
    },
    {
      method: 'sampling/createMessage',
      part: 'params',
      valid: { messages: [{ role: 'user', content: text }], maxTokens: 100, includeContext: 'thisServer', modelPreferences: { hints: [{ name: 'claude' }], speedPriority: 0.2 } },
      invalid: { messages: [{ role: 'user', content: text }], includeContext: 'everything', modelPreferences: { costPriority: 2 } },
      broken: ['/params/maxTokens', '/params/includeContext', '/params/modelPreferences/costPriority'],
      why: 'maxTokens: number; includeContext is "none" | "thisServer" | "allServers"; priorities are 0…1',
    },
    {
      method: 'sampling/createMessage',
      part: 'result',
      valid: { role: 'assistant', content: text, model: 'm-1', stopReason: 'endTurn' },
      invalid: { role: 'assistant', content: { type: 'resource', resource: { uri: 'file:///a', text: 'x' } } },
      broken: ['/result/content/type', '/result/model'],
      why: 'sampling content is text, image (or audio); model: string',
    },
    { method: 'roots/list', part: 'params', valid: undefined, invalid: 7, broken: ['/params'], why: 'params?: object' },
    {
      method: 'roots/list',
      part: 'result',
      valid: { roots: [{ uri: 'file:///home/me/p', name: 'p' }] },
      invalid: { roots: [{ name: 'p' }, { uri: 'file:///x', name: 3 }] },
      broken: ['/result/roots/0/uri', '/result/roots/1/name'],
      why: 'Root.uri: string; name?: string',
    },
    {
      method: 'notifications/progress',
      part: 'notification',
      valid: { progressToken: 'tok', progress: 1, total: 3 },
      invalid: { progressToken: { id: 1 }, progress: 'half' },
      broken: ['/params/progressToken', '/params/progress'],
      why: 'ProgressToken is string | number; progress: number',
    },
    { method: 'notifications/initialized', part: 'notification', valid: undefined, invalid: 'ready', broken: ['/params'], why: 'params?: object' },
    { method: 'notifications/roots/list_changed', part: 'notification', valid: {}, invalid: 1, broken: ['/params'], why: 'params?: object' },
    { method: 'notifications/message', part: 'notification', valid: { level: 'info', logger: 'db', data: { rows: 3 } }, invalid: { level: 'info', logger: 7 }, broken: ['/params/logger', '/params/data'], why: 'logger?: string; data is required' },
    { method: 'notifications/resources/updated', part: 'notification', valid: { uri: 'file:///a.md' }, invalid: {}, broken: ['/params/uri'], why: 'uri: string' },
    { method: 'notifications/resources/list_changed', part: 'notification', valid: undefined, invalid: [], broken: ['/params'], why: 'params?: object' },
    { method: 'notifications/tools/list_changed', part: 'notification', valid: { _meta: { any: 'thing' } }, invalid: 'x', broken: ['/params'], why: 'params?: object' },
    { method: 'notifications/prompts/list_changed', part: 'notification', valid: undefined, invalid: false, broken: ['/params'], why: 'params?: object' },
    { method: '(any)', part: 'error', valid: { code: -32601, message: 'Method not found', data: { method: 'x' } }, invalid: { code: 1.5, message: 404 }, broken: ['/error/code', '/error/message'], why: 'code: integer; message: string' },
  ];
}

/** The request methods of every handshake revision (ClientRequest ∪ ServerRequest of 2024-11-05). */
export const HANDSHAKE_REQUESTS = [
  'initialize',
  'ping',
  'completion/complete',
  'logging/setLevel',
  'prompts/get',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'tools/call',
  'tools/list',
  'sampling/createMessage',
  'roots/list',
];

/** The notifications of every handshake revision (ClientNotification ∪ ServerNotification of 2024-11-05). */
export const HANDSHAKE_NOTIFICATIONS = [
  'notifications/cancelled',
  'notifications/progress',
  'notifications/initialized',
  'notifications/roots/list_changed',
  'notifications/message',
  'notifications/resources/updated',
  'notifications/resources/list_changed',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
];
