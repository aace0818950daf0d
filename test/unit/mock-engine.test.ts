/** The mock's engine in memory: a recorded session built as log records, a client's lines in, the mock's lines out. */
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/log/record.js';
import { buildSession } from '../../src/replay/recorded.js';
import { ANSWER_GAP_MS, MockEngine, type MockOut } from '../../src/replay/mock-engine.js';

type Json = Record<string, unknown>;
type Side = 'client' | 'server';

/** Log records for a list of [side, message, extra fields]; answers get reqSeq, method and ms like the log writer gives them. */
function records(steps: Array<[Side, Json, Partial<LogRecord>?]>): LogRecord[] {
  const out: LogRecord[] = [{ v: 1, time: 0, session: 'mock-1', seq: 1, from: 'proxy', kind: 'event', event: 'start', command: 'node', args: ['s.js'] }];
  const pending = new Map<string, number>();
  for (const [from, msg, extra] of steps) {
    const seq = out.length + 1;
    const key = (side: Side) => `${side}|${typeof msg['id']}:${String(msg['id'])}`;
    const r: Record<string, unknown> = { v: 1, time: seq * 10, session: 'mock-1', seq, from, msg };
    const params = msg['params'] as Json | undefined;
    if (typeof msg['method'] === 'string') {
      r['kind'] = 'id' in msg ? 'request' : 'notification';
      r['method'] = msg['method'];
      if (typeof params?.['name'] === 'string') r['target'] = params['name'];
      if ('id' in msg) {
        r['id'] = msg['id'];
        pending.set(key(from), seq);
      }
    } else {
      r['kind'] = 'error' in msg ? 'error' : 'response';
      r['id'] = msg['id'];
      const reqSeq = pending.get(key(from === 'client' ? 'server' : 'client'));
      if (reqSeq !== undefined) r['reqSeq'] = reqSeq;
    }
    Object.assign(r, extra);
    out.push(r as LogRecord);
  }
  return out;
}

const req = (id: unknown, method: string, params?: unknown): Json => ({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
const note = (method: string, params?: unknown): Json => ({ jsonrpc: '2.0', method, ...(params !== undefined ? { params } : {}) });
const res = (id: unknown, result: unknown): Json => ({ jsonrpc: '2.0', id, result });
const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const call = (id: unknown, name: string, args: unknown = {}, meta?: Json): Json => req(id, 'tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) });
const canned = { model: 'm', role: 'assistant', content: { type: 'text', text: 'CANNED' } };
const INIT_RESULT = { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'calc', version: '1.0.0' } };
const cut = `${'x'.repeat(50)}…[truncated: 3000 bytes]`;

const session = buildSession(
  records([
    ['server', note('notifications/message', { level: 'info', data: 'booting' })],
    ['client', req(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'rec', version: '1' } })],
    ['server', res(0, INIT_RESULT)],
    ['client', note('notifications/initialized')],
    ['server', req('r0', 'roots/list')],
    ['client', res('r0', { roots: [] })],
    ['client', req(1, 'tools/list')],
    ['server', note('notifications/tools/list_changed')],
    ['server', res(1, { tools: [{ name: 'add' }, { name: 'count' }, { name: 'ask' }, { name: 'big' }] })],
    ['client', call(2, 'add', { a: 1, b: 2 })],
    ['server', res(2, text('3'))],
    ['client', call(3, 'add', { a: 5, b: 5 })],
    ['server', res(3, text('10'))],
    ['client', call(4, 'count', { n: 2 }, { progressToken: 4 })],
    ['server', note('notifications/progress', { progressToken: 4, progress: 1, total: 2 }), { reqSeq: 15 }],
    ['server', note('notifications/progress', { progressToken: 4, progress: 2, total: 2 }), { reqSeq: 15 }],
    ['server', res(4, text('counted'))],
    ['client', call(5, 'ask')],
    ['server', req('s1', 'sampling/createMessage', { messages: [], maxTokens: 5 })],
    ['client', res('s1', canned)],
    ['server', res(5, text('the client said: CANNED'))],
    ['server', note('notifications/message', { level: 'info', data: 'after ask' })],
    ['client', call(6, 'big')],
    ['server', res(6, text(cut)), { truncated: true, bytes: 3100 }],
    ['client', req(7, 'prompts/list')],
  ]),
);

function mock(waitMs = 1000) {
  let now = 0;
  const engine = new MockEngine(session, { now: () => now, answerWaitMs: waitMs });
  const send = (m: unknown): { out: Json[]; err: string[]; raw: string[] } => split(engine.onLine(typeof m === 'string' ? m : JSON.stringify(m)));
  return { engine, send, advance: (ms: number) => ((now += ms), split(engine.onTick())) };
}

function split(outs: MockOut[]): { out: Json[]; err: string[]; raw: string[] } {
  const out: Json[] = [];
  const err: string[] = [];
  const raw: string[] = [];
  for (const o of outs) {
    if ('stderr' in o) err.push(o.stderr);
    else {
      raw.push(o.stdout);
      out.push(JSON.parse(o.stdout) as Json);
    }
  }
  return { out, err, raw };
}

const texts = (out: Json[]): string[] => out.map((m) => ((m['result'] as { content?: Array<{ text: string }> } | undefined)?.content?.[0]?.text ?? String(m['method'] ?? (m['error'] as Json | undefined)?.['code'])));

describe('mock: answering from the recording', () => {
  it('sends what the server said before anyone spoke, then answers initialize under the live id', () => {
    const { engine, send } = mock();
    expect(split(engine.start()).out).toEqual([note('notifications/message', { level: 'info', data: 'booting' })]);
    const { out } = send(req('init-x', 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'other', version: '9' } }));
    expect(out).toEqual([res('init-x', INIT_RESULT)]);
  });

  it("sends the server's request that followed the client's notification", () => {
    const { send } = mock();
    send(req(0, 'initialize', {}));
    expect(send(note('notifications/initialized')).out).toEqual([req('r0', 'roots/list')]);
    expect(send(res('r0', { roots: [] })).out).toEqual([]);
  });

  it('sends notifications where they were recorded, and only once', () => {
    const { send, advance } = mock();
    expect(send(req(10, 'tools/list')).out.map((m) => m['method'])).toEqual(['notifications/tools/list_changed']);
    // the answer follows a moment later, in a write of its own
    expect(advance(ANSWER_GAP_MS - 1).out).toEqual([]);
    const later = advance(1);
    expect(later.out.map((m) => m['id'])).toEqual([10]);
    expect(later.err).toEqual([]);
    // a client that re-lists on list_changed must not be sent list_changed again (no loop)
    expect(send(req(11, 'tools/list')).out.map((m) => m['method'] ?? 'answer')).toEqual(['answer']);
  });

  it('prefers exact params, then the same tool in recorded order, then reuses the last', () => {
    const { send } = mock();
    expect(texts(send(call('a', 'add', { a: 5, b: 5 })).out)).toEqual(['10']);
    expect(texts(send(call('b', 'add', { a: 9, b: 9 })).out)).toEqual(['3']); // first unused add
    expect(texts(send(call('c', 'add', { a: 9, b: 9 })).out)).toEqual(['10']); // all used: the last one
    expect(texts(send(call('d', 'add', { a: 1, b: 2 })).out)).toEqual(['3']); // exact again
  });

  it('ignores params._meta when matching', () => {
    const { send } = mock();
    expect(texts(send(call('a', 'add', { a: 5, b: 5 }, { progressToken: 'zzz' })).out)).toEqual(['10']);
  });

  it('answers -32601 for a tool it has no answer for, never with another tool, and says why on stderr', () => {
    const { send } = mock();
    const { out, err } = send(call(1, 'delete-everything'));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ id: 1, error: { code: -32601 } });
    expect(err[0]).toContain('tools/call "delete-everything"');
    expect(err[0]).toContain('"add", "count", "ask", "big"');
  });

  it('answers -32601 for a method the session never saw, and for one never answered', () => {
    const { send } = mock();
    const never = send(req(1, 'resources/list'));
    expect(never.out[0]).toMatchObject({ error: { code: -32601 } });
    expect(never.err[0]).toContain('never saw this request');
    expect(never.err[0]).toContain('tools/call (add, count, ask, big)');
    const unanswered = send(req(2, 'prompts/list'));
    expect(unanswered.err[0]).toContain('#26 was never answered');
  });

  it('answers ping even when none was recorded', () => {
    expect(mock().send(req('p', 'ping')).out).toEqual([res('p', {})]);
  });

  it('re-sends progress with the live progress token, and none without one', () => {
    const { send, advance } = mock();
    const withToken = [...send(call(40, 'count', { n: 2 }, { progressToken: 'tok' })).out, ...advance(ANSWER_GAP_MS).out];
    expect(withToken.map((m) => (m['params'] as Json | undefined)?.['progressToken'] ?? m['id'])).toEqual(['tok', 'tok', 40]);
    expect(withToken.map((m) => (m['params'] as Json | undefined)?.['progress'])).toEqual([1, 2, undefined]);
    const again = [...send(call(41, 'count', { n: 2 }, { progressToken: 7 })).out, ...advance(ANSWER_GAP_MS).out];
    expect(again.map((m) => (m['params'] as Json | undefined)?.['progressToken'] ?? m['id'])).toEqual([7, 7, 41]);
    // without a token: no progress, and the answer at once
    expect(send(call(42, 'count', { n: 2 })).out.map((m) => m['id'])).toEqual([42]);
  });
});

describe("mock: the server's own requests", () => {
  it('waits for the client to answer the recorded request before answering, as the server did', () => {
    const { send, engine } = mock();
    const asked = send(call(50, 'ask'));
    expect(asked.out).toEqual([req('s1', 'sampling/createMessage', { messages: [], maxTokens: 5 })]);
    expect(engine.nextDeadline()).toBe(1000);
    const answered = send(res('s1', { model: 'live', role: 'assistant', content: { type: 'text', text: 'x' } }));
    expect(answered.out.map((m) => m['id'] ?? m['method'])).toEqual([50, 'notifications/message']);
    expect(texts(answered.out)[0]).toBe('the client said: CANNED');
    expect(engine.nextDeadline()).toBeUndefined();
  });

  it('answers anyway when the client does not answer in time, and says so', () => {
    const { send, advance } = mock(200);
    send(call(50, 'ask'));
    expect(advance(100).out).toEqual([]);
    const late = advance(150);
    expect(late.out.map((m) => m['id'] ?? m['method'])).toEqual([50, 'notifications/message']);
    expect(late.err[0]).toContain('did not answer');
  });

  it('drops the waiting answer when the client cancels its request', () => {
    const { send } = mock();
    send(call(50, 'ask'));
    send(note('notifications/cancelled', { requestId: 50 }));
    // neither the answer nor what followed it in the recording
    expect(send(res('s1', canned)).out).toEqual([]);
  });
});

describe('mock: odd input and shortened records', () => {
  it('serves a shortened answer as the log holds it and says so once', () => {
    const { send } = mock();
    const first = send(call(60, 'big'));
    expect(texts(first.out)).toEqual([cut]);
    expect(first.err).toHaveLength(1);
    expect(first.err[0]).toContain('shortened copy of 3100 bytes');
    expect(first.err[0]).toContain('--max-log-bytes 4096');
    expect(send(call(61, 'big')).err).toEqual([]);
  });

  it('answers a batch with one array line', () => {
    const { send } = mock();
    const { raw } = send([req(1, 'ping'), call(2, 'add', { a: 1, b: 2 }), note('notifications/initialized')]);
    const arrays = raw.filter((l) => l.startsWith('['));
    expect(arrays).toHaveLength(1);
    expect((JSON.parse(arrays[0]!) as Json[]).map((m) => m['id'])).toEqual([1, 2]);
  });

  it('answers a line that is not JSON with a parse error and explains it', () => {
    const { out, err } = mock().send('this is not json');
    expect(out).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }]);
    expect(err[0]).toContain('not JSON');
  });

  it('answers JSON that is not a JSON-RPC message with invalid request', () => {
    const { out } = mock().send({ hello: 1 });
    expect(out[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(mock().send([]).out[0]).toMatchObject({ error: { code: -32600 } });
  });

  it('ignores answers to requests it never sent', () => {
    expect(mock().send(res('nobody', {})).out).toEqual([]);
  });
});
