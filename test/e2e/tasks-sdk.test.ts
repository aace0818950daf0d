/**
 * A real task session through the built mcp-tap (issue 28 §3): the official SDK client runs task-augmented
 * tools/call (callToolStream: CreateTaskResult, tasks/get polls, notifications/tasks/status, tasks/result)
 * against an SDK server (test/fixtures/servers/task-server.mjs), and the server runs a sampling request as
 * a task on the client. The log links every task record to its call; `stats --json` and `check` read
 * the task's real duration, not the instant acknowledgement; the session has no finding.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, ROOT, fixture, tempDir } from '../helpers/paths.js';
import { readRecords, type Rec } from '../helpers/log.js';
import { runTap } from '../helpers/run-tap.js';

const SLOW_MS = 300;
let dir: string;
let cleanup: () => void;
let log: string;
let records: Rec[];
const seen: string[] = [];
let sampled = '';

async function cli(args: string[]) {
  const run = runTap(args, { env: { XDG_STATE_HOME: join(dir, 'state') } });
  run.child.stdin.end();
  const { code } = await run.exited(20_000);
  return { code, stdout: run.stdout().toString('utf8'), stderr: run.stderr() };
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-tasks-'));
  log = join(dir, 'tasks.jsonrpc.log');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--log', log, '--', process.execPath, fixture('task-server.mjs')],
    env: { ...(process.env as Record<string, string>), XDG_STATE_HOME: join(dir, 'state') },
    stderr: 'pipe',
    cwd: ROOT,
  });
  const store = new InMemoryTaskStore();
  const client = new Client(
    { name: 'mcp-tap-tasks-e2e', version: '1.0.0' },
    { capabilities: { sampling: {}, tasks: { requests: { sampling: { createMessage: {} } } } }, taskStore: store },
  );
  // the client runs the server's sampling request as a task of its own (150 ms)
  client.setRequestHandler(CreateMessageRequestSchema, async (req, extra) => {
    const reply = { model: 'canned', role: 'assistant' as const, content: { type: 'text' as const, text: 'later' } };
    if (!req.params.task || !extra.taskStore) return reply;
    const task = await extra.taskStore.createTask({ ttl: 5000, pollInterval: 20 });
    setTimeout(() => void extra.taskStore!.storeTaskResult(task.taskId, 'completed', reply), 150);
    return { task };
  });
  await client.connect(transport);
  try {
    for await (const m of client.experimental.tasks.callToolStream({ name: 'slow', arguments: { ms: SLOW_MS } }, undefined, { task: { ttl: 5000 } })) seen.push(`slow ${m.type}`);
    for await (const m of client.experimental.tasks.callToolStream({ name: 'slow', arguments: { ms: 100, fail: true } }, undefined, { task: { ttl: 5000 } })) seen.push(`fail ${m.type}`);
    const asked = await client.callTool({ name: 'ask-later', arguments: { ms: 1 } });
    sampled = (asked.content as Array<{ text?: string }>)[0]?.text ?? '';
  } finally {
    await client.close();
    store.cleanup();
  }
  records = readRecords(log);
}, 30_000);
afterAll(() => cleanup());

describe('a task session through mcp-tap', () => {
  it('the SDK client sees its tasks complete, fail, and the server gets its client-side task result', () => {
    expect(seen.filter((s) => !s.endsWith('taskStatus'))).toEqual(['slow taskCreated', 'slow result', 'fail taskCreated', 'fail error']);
    expect(sampled).toBe('the client said: later');
  });

  it('links every record of each task to its call, ends it at its terminal status, and notes nothing', () => {
    const calls = records.filter((r) => r.kind === 'request' && r.method === 'tools/call' && r.target === 'slow');
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      const ack = records.find((r) => r.reqSeq === call.seq)!;
      expect(ack).toMatchObject({ kind: 'response', taskStatus: 'working' });
      const linked = records.filter((r) => r.taskOf === call.seq);
      expect(linked.length).toBeGreaterThan(2);
      expect(linked.every((r) => r.taskId === ack.taskId)).toBe(true);
      const ends = linked.filter((r) => r.taskMs !== undefined);
      expect(ends).toHaveLength(1);
    }
    const polls = records.filter((r) => r.kind === 'request' && r.method === 'tasks/get' && r.from === 'client');
    expect(polls.every((r) => typeof r.taskOf === 'number')).toBe(true);
    // the server-side task: the server's sampling request, the client's CreateTaskResult, its polls
    const sampling = records.find((r) => r.kind === 'request' && r.method === 'sampling/createMessage')!;
    expect(records.find((r) => r.reqSeq === sampling.seq)).toMatchObject({ from: 'client', taskStatus: 'working' });
    expect(records.filter((r) => r.taskOf === sampling.seq && r.from === 'server' && r.method === 'tasks/get').length).toBeGreaterThan(0);
    expect(records.find((r) => r.taskOf === sampling.seq && r.taskMs !== undefined)).toMatchObject({ taskStatus: 'completed' });
    expect(records.flatMap((r) => (Array.isArray(r.notes) ? r.notes : []))).toEqual([]);
  });

  it('stats --json shows the task call with its task duration, and the failed task as an error', async () => {
    const r = await cli(['stats', '--json', log]);
    expect(r.code, r.stderr).toBe(0);
    const st = JSON.parse(r.stdout) as { tools: Array<{ tool: string; count: number; answered: number; errors: number; tasks?: number; latency: { max: number; n: number } | null }> };
    const slow = st.tools.find((t) => t.tool === 'slow')!;
    expect(slow).toMatchObject({ count: 2, answered: 2, errors: 1, tasks: 2 });
    expect(slow.latency!.max).toBeGreaterThanOrEqual(SLOW_MS);
    // timed to the task's end, from the records' own times: each slow call's request to the record that
    // ended its task (not the acknowledgement, which a loaded machine can delay by a large part of SLOW_MS)
    const calls = records.filter((x) => x.kind === 'request' && x.method === 'tools/call' && x.target === 'slow');
    const durations = calls.map((c) => records.find((x) => x.taskOf === c.seq && x.taskMs !== undefined)!.time - c.time);
    expect(durations).toHaveLength(2);
    expect(Math.abs(slow.latency!.max - Math.max(...durations))).toBeLessThan(1);
    const ack = records.find((x) => x.taskId !== undefined && x.taskOf === undefined && x.target === 'slow')!;
    expect(slow.latency!.max).toBeGreaterThan(ack.ms as number);
  });

  it('check passes a legal task session; --fail-on errors fails on the failed task; --max-ms judges the task duration', async () => {
    const pass = await cli(['check', log]);
    expect(pass.code, pass.stdout).toBe(0);
    const errors = await cli(['check', log, '--fail-on', 'errors']);
    expect(errors.code).toBe(1);
    expect(errors.stdout).toContain('✗ task-failed');
    const limit = await cli(['check', log, '--max-ms', `slow=${SLOW_MS - 50}`]);
    expect(limit.code).toBe(1);
    expect(limit.stdout).toContain('✗ max-ms-exceeded');
  });
});
