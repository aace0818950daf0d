/**
 * MCP 2026-07-28 (schema/2026-07-28/schema.ts), stateless, which the SDK does not speak: every request's
 * `_meta` carries protocolVersion and clientCapabilities, every result a resultType, listings and reads
 * ttlMs and cacheScope; input_required results with inputRequests, retries with inputResponses;
 * server/discover, subscriptions/listen and its acknowledgement; cancel requires requestId again; errors
 * -32021 and -32022 carry data. initialize, ping, logging/setLevel and server→client requests are gone.
 */
import { specTable } from './helpers/spec-table.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { 'com.example/x': {} } },
};
const _meta = META;
const text = { type: 'text', text: 'hi' };
const done = { resultType: 'complete' };
const cached = { ...done, ttlMs: 60000, cacheScope: 'public' };

specTable('2026-07-28', {
  requests: ['server/discover', 'completion/complete', 'prompts/get', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'subscriptions/listen', 'tools/call', 'tools/list'],
  notifications: [
    'notifications/cancelled',
    'notifications/progress',
    'notifications/message',
    'notifications/resources/updated',
    'notifications/resources/list_changed',
    'notifications/tools/list_changed',
    'notifications/prompts/list_changed',
    'notifications/subscriptions/acknowledged',
  ],
  absent: ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'sampling/createMessage', 'roots/list', 'elicitation/create', 'tasks/get', 'notifications/initialized', 'notifications/roots/list_changed', 'notifications/elicitation/complete'],
  rows: [
    {
      method: 'server/discover',
      part: 'params',
      valid: { _meta },
      invalid: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'c' } } },
      broken: ['/params/_meta/io.modelcontextprotocol~1clientCapabilities', '/params/_meta/io.modelcontextprotocol~1clientInfo/version'],
      why: 'RequestMetaObject: clientCapabilities is required; clientInfo?: Implementation',
    },
    {
      method: 'server/discover',
      part: 'result',
      valid: { ...cached, supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { tools: { listChanged: true }, extensions: { 'io.modelcontextprotocol/tasks': {} } }, instructions: 'use me', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '2' } } },
      invalid: { supportedVersions: '2026-07-28', capabilities: {} },
      broken: ['/result/resultType', '/result/ttlMs', '/result/cacheScope', '/result/supportedVersions'],
      why: 'Result.resultType; CacheableResult.ttlMs and cacheScope; supportedVersions: string[]',
    },
    {
      method: 'completion/complete',
      part: 'params',
      valid: { _meta, ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'v' } },
      invalid: { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'v' } },
      broken: ['/params/_meta'],
      why: 'RequestParams._meta is required',
    },
    { method: 'completion/complete', part: 'result', valid: { ...done, completion: { values: ['v'] } }, invalid: { completion: { values: ['v'] } }, broken: ['/result/resultType'], why: 'resultType: ResultType' },
    {
      method: 'prompts/get',
      part: 'params',
      valid: { _meta, name: 'p', inputResponses: { ask: { action: 'accept', content: { ok: true } }, roots: { roots: [] } }, requestState: 'opaque' },
      invalid: { _meta, name: 'p', inputResponses: { ask: { model: 5 } }, requestState: 7 },
      broken: ['/params/inputResponses/ask', '/params/requestState'],
      why: 'inputResponses values are CreateMessageResult | ListRootsResult | ElicitResult; requestState?: string',
    },
    { method: 'prompts/get', part: 'result', valid: { ...done, messages: [{ role: 'user', content: text }] }, invalid: { ...done, messages: [{ role: 'user', content: { type: 'text' } }] }, broken: ['/result/messages/0/content/text'], why: 'TextContent.text' },
    {
      method: 'prompts/get',
      part: 'result',
      label: 'input_required',
      valid: { resultType: 'input_required', inputRequests: { ask: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } } } }, requestState: 'abc' },
      invalid: { resultType: 'input_required' },
      broken: ['/result'],
      why: 'InputRequiredResult: at least one of inputRequests or requestState MUST be present',
    },
    { method: 'prompts/list', part: 'params', valid: { _meta, cursor: 'c' }, invalid: undefined, broken: ['/params'], why: 'PaginatedRequest.params is required (it carries _meta)' },
    { method: 'prompts/list', part: 'result', valid: { ...cached, prompts: [{ name: 'p' }] }, invalid: { ...done, ttlMs: -1, cacheScope: 'shared', prompts: [] }, broken: ['/result/ttlMs', '/result/cacheScope'], why: 'ttlMs @minimum 0; cacheScope is public | private' },
    { method: 'resources/list', part: 'params', valid: { _meta }, invalid: { _meta, cursor: 3 }, broken: ['/params/cursor'], why: 'cursor?: string' },
    { method: 'resources/list', part: 'result', valid: { ...cached, resources: [{ uri: 'file:///a', name: 'a' }] }, invalid: { ...cached, resources: [{ uri: 'file:///a' }] }, broken: ['/result/resources/0/name'], why: 'Resource.name' },
    { method: 'resources/templates/list', part: 'params', valid: { _meta }, invalid: { _meta: 'v2026' }, broken: ['/params/_meta'], why: '_meta: RequestMetaObject' },
    { method: 'resources/templates/list', part: 'result', valid: { ...cached, resourceTemplates: [] }, invalid: { ...done, resourceTemplates: [] }, broken: ['/result/ttlMs', '/result/cacheScope'], why: 'CacheableResult' },
    { method: 'resources/read', part: 'params', valid: { _meta, uri: 'file:///a' }, invalid: { _meta, uri: 5 }, broken: ['/params/uri'], why: 'uri: string' },
    { method: 'resources/read', part: 'result', valid: { ...cached, contents: [{ uri: 'file:///a', text: 'x' }] }, invalid: { ...done, contents: [{ uri: 'file:///a', text: 'x' }] }, broken: ['/result/ttlMs', '/result/cacheScope'], why: 'ReadResourceResult is a CacheableResult' },
    {
      method: 'subscriptions/listen',
      part: 'params',
      valid: { _meta, notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///a'] } },
      invalid: { _meta, notifications: { resourceSubscriptions: 'file:///a' } },
      broken: ['/params/notifications/resourceSubscriptions'],
      why: 'SubscriptionFilter.resourceSubscriptions?: string[]',
    },
    { method: 'subscriptions/listen', part: 'result', valid: { ...done, _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } }, invalid: { ...done }, broken: ['/result/_meta'], why: 'SubscriptionsListenResult._meta is required (subscriptionId)' },
    {
      method: 'tools/call',
      part: 'params',
      valid: { _meta: { ...META, progressToken: 1, 'io.modelcontextprotocol/logLevel': 'debug' }, name: 't', arguments: {} },
      invalid: { _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'loud' }, name: 't' },
      broken: ['/params/_meta/io.modelcontextprotocol~1logLevel'],
      why: 'logLevel?: LoggingLevel',
    },
    { method: 'tools/call', part: 'result', valid: { ...done, content: [text], structuredContent: [1, 2] }, invalid: { content: [text] }, broken: ['/result/resultType'], why: 'resultType is required (structuredContent may be any value now)' },
    {
      method: 'tools/call',
      part: 'result',
      label: 'input_required',
      valid: { resultType: 'input_required', inputRequests: { s: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: text }], maxTokens: 9 } }, r: { method: 'roots/list' } } },
      invalid: { resultType: 'input_required', inputRequests: { a: { method: 'tools/list' } } },
      broken: ['/result/inputRequests/a/method'],
      why: 'InputRequest is CreateMessageRequest | ListRootsRequest | ElicitRequest',
    },
    { method: 'tools/list', part: 'params', valid: { _meta }, invalid: {}, broken: ['/params/_meta'], why: '_meta is required' },
    {
      method: 'tools/list',
      part: 'result',
      valid: { ...cached, tools: [{ name: 't', inputSchema: { type: 'object', anyOf: [{ required: ['a'] }] }, outputSchema: { type: 'array' } }] },
      invalid: { ...cached, tools: [{ name: 't', inputSchema: { anyOf: [] } }] },
      broken: ['/result/tools/0/inputSchema/type'],
      why: 'inputSchema.type: "object" (any other members; outputSchema is any schema now)',
    },
    { method: 'notifications/cancelled', part: 'notification', valid: { requestId: 1, reason: 'r' }, invalid: { reason: 'r' }, broken: ['/params/requestId'], why: 'requestId: RequestId is required again' },
    { method: 'notifications/progress', part: 'notification', valid: { progressToken: 1, progress: 1, message: 'm' }, invalid: { progressToken: 1, progress: '1' }, broken: ['/params/progress'], why: 'progress: number' },
    { method: 'notifications/message', part: 'notification', valid: { level: 'error', data: 'x' }, invalid: { level: 'fatal', data: 'x' }, broken: ['/params/level'], why: 'LoggingLevel' },
    {
      method: 'notifications/resources/updated',
      part: 'notification',
      valid: { _meta: { 'io.modelcontextprotocol/subscriptionId': 9 }, uri: 'file:///a' },
      invalid: { _meta: { 'io.modelcontextprotocol/subscriptionId': true }, uri: 'file:///a' },
      broken: ['/params/_meta/io.modelcontextprotocol~1subscriptionId'],
      why: 'NotificationMetaObject.subscriptionId?: RequestId',
    },
    { method: 'notifications/resources/list_changed', part: 'notification', valid: undefined, invalid: 'x', broken: ['/params'], why: 'params?: NotificationParams' },
    { method: 'notifications/tools/list_changed', part: 'notification', valid: {}, invalid: 1, broken: ['/params'], why: 'params?: NotificationParams' },
    { method: 'notifications/prompts/list_changed', part: 'notification', valid: {}, invalid: [], broken: ['/params'], why: 'params?: NotificationParams' },
    { method: 'notifications/subscriptions/acknowledged', part: 'notification', valid: { notifications: { promptsListChanged: false } }, invalid: {}, broken: ['/params/notifications'], why: 'notifications: SubscriptionFilter' },
    {
      method: '(any)',
      part: 'error',
      label: '-32022',
      valid: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2027-01-01' } },
      invalid: { code: -32022, message: 'Unsupported protocol version', data: { supported: '2026-07-28' } },
      broken: ['/error/data/supported', '/error/data/requested'],
      why: 'UnsupportedProtocolVersionError.data: {supported: string[], requested: string}',
    },
    {
      method: '(any)',
      part: 'error',
      label: '-32021',
      valid: { code: -32021, message: 'Missing capability', data: { requiredCapabilities: { elicitation: {} } } },
      invalid: { code: -32021, message: 'Missing capability' },
      broken: ['/error/data'],
      why: 'MissingRequiredClientCapabilityError.data is required',
    },
  ],
});
