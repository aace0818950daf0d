/**
 * MCP 2024-11-05 (schema/2024-11-05/schema.ts): the shared handshake rows, and what this first revision
 * does not have yet — audio and resource links are no content here; tool annotations and a progress
 * `message` are unknown members (never violations); cancel requires requestId.
 */
import { specTable } from './helpers/spec-table.js';
import { HANDSHAKE_NOTIFICATIONS, HANDSHAKE_REQUESTS, handshakeRows } from './helpers/spec-rows-handshake.js';

const text = { type: 'text', text: 'hi' };

specTable('2024-11-05', {
  requests: HANDSHAKE_REQUESTS,
  notifications: HANDSHAKE_NOTIFICATIONS,
  absent: ['elicitation/create', 'tasks/get', 'server/discover', 'notifications/elicitation/complete'],
  rows: [
    ...handshakeRows('2024-11-05'),
    { method: 'notifications/cancelled', part: 'notification', valid: { requestId: 3, reason: 'user' }, invalid: { reason: 'user' }, broken: ['/params/requestId'], why: 'requestId: RequestId has no "?"' },
    {
      method: 'tools/call',
      part: 'result',
      label: 'no audio, no resource links yet',
      valid: { content: [text, { type: 'resource', resource: { uri: 'file:///a', blob: 'AAEC' } }], structuredContent: 'unknown member' },
      invalid: { content: [{ type: 'audio', data: 'AAEC', mimeType: 'audio/wav' }, { type: 'resource_link', uri: 'file:///a', name: 'a' }] },
      broken: ['/result/content/0/type', '/result/content/1/type'],
      why: 'content: (TextContent | ImageContent | EmbeddedResource)[]',
    },
    {
      method: 'tools/list',
      part: 'result',
      label: 'annotations and titles are unknown members',
      valid: { tools: [{ name: 't', title: 7, annotations: { readOnlyHint: 'yes' }, inputSchema: { type: 'object' } }] },
      invalid: { tools: [{ name: 't', inputSchema: { properties: {} } }] },
      broken: ['/result/tools/0/inputSchema/type'],
      why: 'inputSchema.type: "object"',
    },
    {
      method: 'notifications/progress',
      part: 'notification',
      label: 'message is an unknown member',
      valid: { progressToken: 1, progress: 2, message: 99 },
      invalid: { progress: 2 },
      broken: ['/params/progressToken'],
      why: 'progressToken: ProgressToken',
    },
    {
      method: 'initialize',
      part: 'result',
      label: 'no completions capability yet',
      valid: { protocolVersion: '2024-11-05', capabilities: { completions: true }, serverInfo: { name: 's', version: '1' } },
      invalid: { protocolVersion: '2024-11-05', capabilities: { logging: 'on' }, serverInfo: { name: 's', version: '1' } },
      broken: ['/result/capabilities/logging'],
      why: 'logging?: object',
    },
  ],
});
