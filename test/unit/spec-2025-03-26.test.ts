/**
 * MCP 2025-03-26 (schema/2025-03-26/schema.ts): the shared handshake rows, plus what it added — audio
 * content, tool annotations, the completions capability, a progress `message` — and what it does not
 * have yet: resource links, structuredContent (an unknown member here), elicitation.
 */
import { specTable } from './helpers/spec-table.js';
import { HANDSHAKE_NOTIFICATIONS, HANDSHAKE_REQUESTS, handshakeRows } from './helpers/spec-rows-handshake.js';

const audio = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' };

specTable('2025-03-26', {
  requests: HANDSHAKE_REQUESTS,
  notifications: HANDSHAKE_NOTIFICATIONS,
  absent: ['elicitation/create', 'tasks/list', 'server/discover', 'notifications/tasks/status'],
  rows: [
    ...handshakeRows('2025-03-26'),
    { method: 'notifications/cancelled', part: 'notification', valid: { requestId: 'r-1' }, invalid: { requestId: null }, broken: ['/params/requestId'], why: 'requestId: string | number' },
    {
      method: 'tools/call',
      part: 'result',
      label: 'audio, but no resource links',
      valid: { content: [audio], structuredContent: 'an unknown member here' },
      invalid: { content: [{ ...audio, data: 'not base64!' }, { type: 'resource_link', uri: 'file:///a', name: 'a' }] },
      broken: ['/result/content/0/data', '/result/content/1/type'],
      why: 'AudioContent.data is base64 (@format byte); content has no ResourceLink',
    },
    {
      method: 'tools/list',
      part: 'result',
      label: 'tool annotations',
      valid: { tools: [{ name: 't', inputSchema: { type: 'object' }, annotations: { title: 'T', readOnlyHint: true, openWorldHint: false } }] },
      invalid: { tools: [{ name: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'yes', destructiveHint: 0 } }] },
      broken: ['/result/tools/0/annotations/readOnlyHint', '/result/tools/0/annotations/destructiveHint'],
      why: 'ToolAnnotations hints are booleans',
    },
    {
      method: 'notifications/progress',
      part: 'notification',
      label: 'message',
      valid: { progressToken: 1, progress: 2, total: 4, message: 'halfway' },
      invalid: { progressToken: 1, progress: 2, message: 50 },
      broken: ['/params/message'],
      why: 'message?: string',
    },
    {
      method: 'initialize',
      part: 'result',
      label: 'completions capability',
      valid: { protocolVersion: '2025-03-26', capabilities: { completions: {} }, serverInfo: { name: 's', version: '1' } },
      invalid: { protocolVersion: '2025-03-26', capabilities: { completions: true }, serverInfo: { name: 's', version: '1' } },
      broken: ['/result/capabilities/completions'],
      why: 'completions?: object',
    },
    {
      method: 'sampling/createMessage',
      part: 'result',
      label: 'audio in sampling',
      valid: { role: 'assistant', content: audio, model: 'm' },
      invalid: { role: 'assistant', content: [audio], model: 'm' },
      broken: ['/result/content'],
      why: 'SamplingMessage.content is one TextContent | ImageContent | AudioContent, not an array',
    },
  ],
});
