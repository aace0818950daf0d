/**
 * MCP 2025-11-25 (schema/2025-11-25/schema.ts): the shared handshake rows, plus tasks (tasks/*, the
 * status notification, task-augmented requests answered with a CreateTaskResult), URL-mode elicitation
 * with its completion notification and error -32042, icons, sampling with tools, an optional cancel
 * requestId. And the official SDK, which speaks this revision, agrees on every example but the few where
 * it is knowingly lenient.
 */
import { describe, expect, it } from 'vitest';
import { sdkAccepts } from '../../src/spec/sdk-behaviour.js';
import { specTable, wrap, type Row } from './helpers/spec-table.js';
import { HANDSHAKE_NOTIFICATIONS, HANDSHAKE_REQUESTS, handshakeRows } from './helpers/spec-rows-handshake.js';

const task = { taskId: 't-1', status: 'working', statusMessage: 'busy', createdAt: '2025-11-25T10:00:00Z', lastUpdatedAt: '2025-11-25T10:00:01Z', ttl: 60000, pollInterval: 500 };
const text = { type: 'text', text: 'hi' };
const url = { mode: 'url', message: 'Sign in', elicitationId: 'e-1', url: 'https://example.com/auth' };

const rows: Row[] = [
  ...handshakeRows('2025-11-25'),
  { method: 'notifications/cancelled', part: 'notification', valid: { reason: 'no id: requestId became optional' }, invalid: { requestId: true }, broken: ['/params/requestId'], why: 'requestId?: RequestId' },
  {
    method: 'elicitation/create',
    part: 'params',
    valid: {
      message: 'Pick',
      requestedSchema: {
        type: 'object',
        properties: {
          one: { type: 'string', oneOf: [{ const: 'a', title: 'A' }], default: 'a' },
          many: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, maxItems: 2 },
          n: { type: 'number', default: 1 },
        },
      },
    },
    invalid: { mode: 'url', message: 'Sign in' },
    broken: ['/params/elicitationId', '/params/url'],
    why: 'ElicitRequestURLParams: elicitationId: string, url: string',
  },
  { method: 'elicitation/create', part: 'params', label: 'URL mode', valid: url, invalid: { ...url, url: 42 }, broken: ['/params/url'], why: 'url: string' },
  { method: 'elicitation/create', part: 'result', valid: { action: 'accept', content: { tags: ['a', 'b'], n: 1 } }, invalid: { action: 'accept', content: { n: {} } }, broken: ['/result/content/n'], why: 'content values: string | number | boolean | string[]' },
  { method: 'tasks/get', part: 'params', valid: { taskId: 't-1' }, invalid: {}, broken: ['/params/taskId'], why: 'taskId: string' },
  { method: 'tasks/get', part: 'result', valid: task, invalid: { ...task, status: 'running', ttl: 'forever' }, broken: ['/result/status', '/result/ttl'], why: 'TaskStatus; ttl: number | null' },
  { method: 'tasks/result', part: 'params', valid: { taskId: 't-1' }, invalid: { taskId: 1 }, broken: ['/params/taskId'], why: 'taskId: string' },
  { method: 'tasks/result', part: 'result', valid: { content: [text], anything: 'else' }, invalid: 'done', broken: ['/result'], why: 'GetTaskPayloadResult is a Result' },
  { method: 'tasks/list', part: 'params', valid: { cursor: 'c' }, invalid: { cursor: 1 }, broken: ['/params/cursor'], why: 'cursor?: string' },
  {
    method: 'tasks/list',
    part: 'result',
    valid: { tasks: [task, { ...task, taskId: 't-2', status: 'completed', ttl: null }], nextCursor: 'n' },
    invalid: { tasks: [{ taskId: 't-1' }] },
    broken: ['/result/tasks/0/status', '/result/tasks/0/createdAt', '/result/tasks/0/lastUpdatedAt', '/result/tasks/0/ttl'],
    why: 'Task: status, createdAt, lastUpdatedAt and ttl are required',
  },
  { method: 'tasks/cancel', part: 'params', valid: { taskId: 't-1' }, invalid: { id: 't-1' }, broken: ['/params/taskId'], why: 'taskId: string' },
  { method: 'tasks/cancel', part: 'result', valid: { ...task, status: 'cancelled' }, invalid: { ...task, createdAt: 1 }, broken: ['/result/createdAt'], why: 'createdAt: string' },
  { method: 'notifications/tasks/status', part: 'notification', valid: { ...task, status: 'input_required' }, invalid: { ...task, status: 'done' }, broken: ['/params/status'], why: 'TaskStatus' },
  { method: 'notifications/elicitation/complete', part: 'notification', valid: { elicitationId: 'e-1' }, invalid: {}, broken: ['/params/elicitationId'], why: 'elicitationId: string' },
  {
    method: 'tools/call',
    part: 'params',
    label: 'task-augmented, with a related task',
    valid: { name: 't', task: { ttl: 60000 }, _meta: { progressToken: 'p', 'io.modelcontextprotocol/related-task': { taskId: 't-0' } } },
    invalid: { name: 't', task: { ttl: 'long' }, _meta: { progressToken: true, 'io.modelcontextprotocol/related-task': { taskId: 1 } } },
    broken: ['/params/task/ttl', '/params/_meta/progressToken', '/params/_meta/io.modelcontextprotocol~1related-task/taskId'],
    why: 'TaskMetadata.ttl?: number; ProgressToken; RelatedTaskMetadata.taskId: string',
  },
  {
    method: 'tools/call',
    part: 'result',
    label: 'a task handle',
    valid: { task },
    invalid: { task: { ...task, lastUpdatedAt: undefined, status: 'queued' } },
    broken: ['/result/task/status', '/result/task/lastUpdatedAt'],
    why: 'CreateTaskResult.task: Task',
  },
  {
    method: 'tools/list',
    part: 'result',
    label: 'icons and execution',
    valid: { tools: [{ name: 't', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }, icons: [{ src: 'https://x/i.png', sizes: ['48x48'], theme: 'dark' }], execution: { taskSupport: 'optional' } }] },
    invalid: { tools: [{ name: 't', inputSchema: { type: 'object', $schema: 7 }, icons: [{ sizes: '48x48' }], execution: { taskSupport: 'sometimes' } }] },
    broken: ['/result/tools/0/inputSchema/$schema', '/result/tools/0/icons/0/src', '/result/tools/0/icons/0/sizes', '/result/tools/0/execution/taskSupport'],
    why: '$schema?: string; Icon.src: string, sizes?: string[]; taskSupport is forbidden | optional | required',
  },
  {
    method: 'initialize',
    part: 'params',
    label: 'elicitation, sampling and task capabilities',
    valid: { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, tasks: { requests: { elicitation: { create: {} } } } }, clientInfo: { name: 'c', version: '1', websiteUrl: 'https://c' } },
    invalid: { protocolVersion: '2025-11-25', capabilities: { elicitation: { url: true }, tasks: { list: 'yes' } }, clientInfo: { name: 'c', version: '1', description: 5 } },
    broken: ['/params/capabilities/elicitation/url', '/params/capabilities/tasks/list', '/params/clientInfo/description'],
    why: 'elicitation.url?: object; tasks.list?: object; Implementation.description?: string',
  },
  {
    method: 'sampling/createMessage',
    part: 'params',
    label: 'tools and tool use',
    valid: {
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 'search', input: { q: 'x' } }] },
        { role: 'user', content: { type: 'tool_result', toolUseId: 'u1', content: [text] } },
      ],
      maxTokens: 50,
      tools: [{ name: 'search', inputSchema: { type: 'object' } }],
      toolChoice: { mode: 'auto' },
    },
    invalid: { messages: [{ role: 'user', content: { type: 'tool_result', content: [text] } }], maxTokens: 50, toolChoice: { mode: 'always' } },
    broken: ['/params/messages/0/content/toolUseId', '/params/toolChoice/mode'],
    why: 'ToolResultContent.toolUseId: string; ToolChoice.mode is auto | required | none',
  },
  {
    method: '(any)',
    part: 'error',
    label: '-32042',
    valid: { code: -32042, message: 'URL elicitation required', data: { elicitations: [url] } },
    invalid: { code: -32042, message: 'URL elicitation required', data: { elicitations: [{ mode: 'url', message: 'm' }] } },
    broken: ['/error/data/elicitations/0/elicitationId', '/error/data/elicitations/0/url'],
    why: 'URLElicitationRequiredError.data.elicitations: ElicitRequestURLParams[]',
  },
];

specTable('2025-11-25', {
  requests: [...HANDSHAKE_REQUESTS, 'elicitation/create', 'tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'],
  notifications: [...HANDSHAKE_NOTIFICATIONS, 'notifications/elicitation/complete', 'notifications/tasks/status'],
  absent: ['server/discover', 'subscriptions/listen', 'notifications/subscriptions/acknowledged'],
  rows,
});

/** Invalid examples the SDK accepts, knowingly: it reads a missing CallToolResult.content as []. */
const SDK_LENIENT = new Set(['tools/call result (content is required)']);

describe('the official SDK (which speaks 2025-11-25) agrees with these shapes', () => {
  const sdkRows = rows.filter((r) => r.part !== 'error' && sdkAccepts(wrap(r.part, r.method, r.valid).kind, r.method, wrap(r.part, r.method, r.valid).msg) !== undefined);
  it('has an SDK schema for nearly every row', () => {
    expect(sdkRows.length).toBeGreaterThan(rows.length - 5);
  });
  for (const r of sdkRows) {
    const name = `${r.part === 'notification' ? r.method : `${r.method} ${r.part}`}${r.label ? ` (${r.label})` : ''}`;
    it(`${name}: the SDK accepts the valid example${SDK_LENIENT.has(name) ? '' : ' and rejects the invalid one'}`, () => {
      const ok = wrap(r.part, r.method, r.valid);
      expect(sdkAccepts(ok.kind, r.method, ok.msg)).toBe(true);
      const bad = wrap(r.part, r.method, r.invalid);
      expect(sdkAccepts(bad.kind, r.method, bad.msg)).toBe(SDK_LENIENT.has(name));
    });
  }
});
