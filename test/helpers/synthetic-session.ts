/**
 * A synthetic, deterministic session of any length, shaped like a busy real one (tool calls with
 * progress, errors, isError results, log notifications, stderr, a few requests left unanswered): what
 * the report's size and time are measured on (test/unit/report-size.test.ts, the browser test).
 */
import type { LogRecord } from '../../src/log/record.js';
import { rng } from './rng.js';

const TOOLS = ['echo', 'get-sum', 'search-files', 'read-file', 'trigger-long-running-operation', 'get-weather', 'query-db'];

/** `messages` records (plus start/end events) of one session, in log order. */
export function syntheticSession(messages: number, seed = 42): LogRecord[] {
  const rand = rng(seed);
  const session = `synthetic-${seed}`;
  const t0 = 1_767_258_000_000;
  const out: LogRecord[] = [];
  let seq = 0;
  let now = 0;
  const push = (r: Omit<LogRecord, 'v' | 'session' | 'seq' | 'time'>, t: number): LogRecord => {
    const msgText = r.msg !== undefined ? JSON.stringify(r.msg) : typeof r.raw === 'string' ? r.raw : '';
    const rec = { v: 1, time: t0 + t, session, seq: ++seq, ...r } as LogRecord;
    if (r.kind !== 'event') rec.bytes = Buffer.byteLength(msgText);
    out.push(rec);
    return rec;
  };
  push({ from: 'proxy', kind: 'event', event: 'start', name: 'synthetic', command: 'node', args: ['server.js', 'stdio'], cwd: '/tmp', pid: 1, versions: { mcpTap: '0.0.0', node: '20.0.0', platform: 'linux', arch: 'x64' }, envNames: [] }, 0);
  // pending answers, by due time
  const due: Array<{ at: number; req: LogRecord; tool: string; id: number; progress: number }> = [];
  const pending: LogRecord[] = [];
  let id = 0;
  let count = 0;
  const emit = (r: Omit<LogRecord, 'v' | 'session' | 'seq' | 'time'>, t: number): LogRecord => {
    count++;
    return push(r, t);
  };
  while (count < messages) {
    now += rand() * 8;
    // answer what is due
    due.sort((a, b) => a.at - b.at);
    while (due.length > 0 && due[0]!.at <= now && count < messages) {
      const d = due.shift()!;
      const ms = d.at - (d.req.time - t0);
      const roll = rand();
      const base = { from: 'server' as const, id: d.id, method: 'tools/call', target: d.tool, reqSeq: d.req.seq, ms };
      if (roll < 0.02) {
        emit({ ...base, kind: 'error', msg: { jsonrpc: '2.0', id: d.id, error: { code: -32603, message: `internal error while running ${d.tool}` } } }, d.at);
      } else if (roll < 0.05) {
        emit({ ...base, kind: 'response', isError: true, msg: { jsonrpc: '2.0', id: d.id, result: { content: [{ type: 'text', text: `${d.tool} failed: upstream timeout after ${ms.toFixed(0)} ms` }], isError: true } } }, d.at);
      } else {
        const text = `Result of ${d.tool} #${d.id}: ${'lorem ipsum dolor sit amet '.repeat(1 + Math.floor(rand() * 8))}`;
        emit({ ...base, kind: 'response', msg: { jsonrpc: '2.0', id: d.id, result: { content: [{ type: 'text', text }] } } }, d.at);
      }
      const i = pending.indexOf(d.req);
      if (i >= 0) pending.splice(i, 1);
    }
    if (count >= messages) break;
    const roll = rand();
    if (roll < 0.07) {
      emit({ from: 'server', kind: 'stderr', raw: `[${new Date(t0 + now).toISOString()}] worker ${Math.floor(rand() * 8)}: cache ${rand() < 0.5 ? 'hit' : 'miss'} for key ${Math.floor(rand() * 1e6)}` }, now);
    } else if (roll < 0.12) {
      emit({ from: 'server', kind: 'notification', method: 'notifications/message', msg: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'synthetic', data: `heartbeat ${count}` } } }, now);
    } else if (roll < 0.2 && due.length > 0) {
      // progress for a running long operation
      const d = due.find((x) => x.tool === 'trigger-long-running-operation');
      if (d) {
        d.progress++;
        emit({ from: 'server', kind: 'notification', method: 'notifications/progress', reqSeq: d.req.seq, ms: now - (d.req.time - t0), msg: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: d.id, progress: d.progress, total: 10 } } }, now);
      }
    } else {
      const tool = TOOLS[Math.floor(rand() * TOOLS.length)]!;
      const myId = ++id;
      const req = emit(
        { from: 'client', kind: 'request', id: myId, method: 'tools/call', target: tool, msg: { jsonrpc: '2.0', id: myId, method: 'tools/call', params: { name: tool, arguments: { query: `q${myId}`, limit: 10 }, _meta: { progressToken: myId } } } },
        now,
      );
      pending.push(req);
      const latency = tool === 'trigger-long-running-operation' ? 200 + rand() * 1500 : 0.5 + rand() * rand() * 120;
      // a few are never answered
      if (rand() > 0.001) due.push({ at: now + latency, req, tool, id: myId, progress: 0 });
    }
  }
  push(
    {
      from: 'proxy',
      kind: 'event',
      event: 'end',
      pending: pending.slice(0, 1000).map((r) => ({ from: 'client', id: r.id ?? null, method: r.method ?? '', seq: r.seq })),
      pendingCount: pending.length,
    },
    now + 1,
  );
  return out;
}
