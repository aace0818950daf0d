/**
 * MCP 2025-06-18 (schema/2025-06-18/schema.ts): the shared handshake rows, plus elicitation/create,
 * resource links, structuredContent and outputSchema, titles, lastModified and completion context; no
 * batches (the analysis' concern), no tasks, no URL elicitation, cancel still requires requestId.
 */
import { specTable } from './helpers/spec-table.js';
import { HANDSHAKE_NOTIFICATIONS, HANDSHAKE_REQUESTS, handshakeRows } from './helpers/spec-rows-handshake.js';

const text = { type: 'text', text: 'hi' };

specTable('2025-06-18', {
  requests: [...HANDSHAKE_REQUESTS, 'elicitation/create'],
  notifications: HANDSHAKE_NOTIFICATIONS,
  absent: ['tasks/get', 'tasks/result', 'server/discover', 'notifications/elicitation/complete', 'notifications/tasks/status'],
  rows: [
    ...handshakeRows('2025-06-18'),
    { method: 'notifications/cancelled', part: 'notification', valid: { requestId: 4 }, invalid: {}, broken: ['/params/requestId'], why: 'requestId: RequestId' },
    {
      method: 'elicitation/create',
      part: 'params',
      valid: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 }, ok: { type: 'boolean' }, c: { type: 'string', enum: ['a', 'b'] } }, required: ['name'] } },
      invalid: { requestedSchema: { type: 'object', properties: { age: { type: 'date' } } } },
      broken: ['/params/message', '/params/requestedSchema/properties/age/type'],
      why: 'message: string; a property is a StringSchema | NumberSchema | BooleanSchema | EnumSchema',
    },
    {
      method: 'elicitation/create',
      part: 'result',
      valid: { action: 'accept', content: { name: 'me', age: 3, ok: true } },
      invalid: { action: 'maybe', content: { tags: ['a'] } },
      broken: ['/result/action', '/result/content/tags'],
      why: 'action is accept | decline | cancel; content values are string | number | boolean',
    },
    {
      method: 'tools/call',
      part: 'result',
      label: 'resource links and structuredContent',
      valid: { content: [text, { type: 'resource_link', uri: 'file:///a', name: 'a', title: 'A' }], structuredContent: { n: 1 } },
      invalid: { content: [{ type: 'resource_link', name: 'a' }], structuredContent: 'n=1' },
      broken: ['/result/content/0/uri', '/result/structuredContent'],
      why: 'ResourceLink is a Resource (uri: string); structuredContent?: {[key]: unknown}',
    },
    {
      method: 'tools/list',
      part: 'result',
      label: 'titles and outputSchema',
      valid: { tools: [{ name: 't', title: 'T', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } } } }] },
      invalid: { tools: [{ name: 't', title: 7, inputSchema: { type: 'object' }, outputSchema: { type: 'array' } }] },
      broken: ['/result/tools/0/title', '/result/tools/0/outputSchema/type'],
      why: 'BaseMetadata.title?: string; outputSchema.type: "object"',
    },
    {
      method: 'resources/list',
      part: 'result',
      label: 'lastModified is a string',
      valid: { resources: [{ uri: 'file:///a', name: 'a', annotations: { lastModified: '2025-01-12' } }] },
      invalid: { resources: [{ uri: 'file:///a', name: 'a', annotations: { lastModified: 1736694058, priority: -1 } }] },
      broken: ['/result/resources/0/annotations/lastModified', '/result/resources/0/annotations/priority'],
      why: 'lastModified?: string; priority is 0…1',
    },
    {
      method: 'completion/complete',
      part: 'params',
      label: 'context',
      valid: { ref: { type: 'ref/resource', uri: 'file:///{p}' }, argument: { name: 'p', value: 'x' }, context: { arguments: { a: 'b' } } },
      invalid: { ref: { type: 'ref/resource' }, argument: { name: 'p', value: 'x' }, context: { arguments: { a: 1 } } },
      broken: ['/params/ref/uri', '/params/context/arguments/a'],
      why: 'ResourceTemplateReference.uri: string; context.arguments values are strings',
    },
    {
      method: 'sampling/createMessage',
      part: 'params',
      label: 'no tool use in sampling yet',
      valid: { messages: [{ role: 'user', content: { type: 'audio', data: 'AAEC', mimeType: 'audio/wav' } }], maxTokens: 1 },
      invalid: { messages: [{ role: 'assistant', content: { type: 'tool_use', id: 'u1', name: 't', input: {} } }], maxTokens: 1 },
      broken: ['/params/messages/0/content/type'],
      why: 'SamplingMessage.content is TextContent | ImageContent | AudioContent',
    },
  ],
});
