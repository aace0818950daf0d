/** The gatherer: requests paired with their answers (batches included), cancels, listings, lifecycle, exit. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gatherSession } from '../../src/check/gather.js';
import { readFacts } from '../../src/check/read-facts.js';
import type { LogRecord } from '../../src/log/record.js';
import { ROOT } from '../helpers/paths.js';

const LOGS = join(ROOT, 'test', 'fixtures', 'logs');

/** Records (seq filled in, consecutive) → facts; each record's line is its index + 1. */
function facts(recs: Array<Partial<LogRecord> & { from: LogRecord['from']; kind: LogRecord['kind'] }>) {
  const items = recs.map((r, i) => ({ record: { v: 1, time: 1000 + i, session: 's', seq: i + 1, ...r } as LogRecord, line: i + 1 }));
  return gatherSession('x.log', 's', items);
}

describe('gatherSession', () => {
  it('pairs answers with their requests by reqSeq, and inside a batch by id with its type', () => {
    const f = facts([
      { from: 'client', kind: 'request', id: 1, method: 'ping' },
      { from: 'client', kind: 'batch', items: [{ kind: 'request', id: 1, method: 'tools/list' }, { kind: 'request', id: '1', method: 'prompts/list' }] },
      { from: 'server', kind: 'response', id: 1, method: 'ping', reqSeq: 1, ms: 3 },
      { from: 'server', kind: 'batch', items: [{ kind: 'error', id: '1', method: 'prompts/list', reqSeq: 2, ms: 4 }] },
    ]);
    expect(f.requests.map((q) => [q.method, q.id, q.answer?.kind, q.answer?.ms])).toEqual([
      ['ping', 1, 'response', 3],
      ['tools/list', 1, undefined, undefined],
      ['prompts/list', '1', 'error', 4],
    ]);
    expect(f.requests[1]!.inBatch).toBe(true);
  });

  it('keeps error details and isError, and marks cancelled requests', () => {
    const f = facts([
      { from: 'client', kind: 'request', id: 1, method: 'tools/call', target: 'a' },
      { from: 'client', kind: 'request', id: 2, method: 'resources/read', target: 'file:///x' },
      { from: 'client', kind: 'request', id: 3, method: 'tools/call', target: 'slow' },
      { from: 'server', kind: 'response', id: 1, method: 'tools/call', reqSeq: 1, ms: 1, isError: true, msg: { jsonrpc: '2.0', id: 1, result: { content: [], isError: true } } },
      { from: 'server', kind: 'error', id: 2, method: 'resources/read', reqSeq: 2, ms: 1, msg: { jsonrpc: '2.0', id: 2, error: { code: -32002, message: 'not found' } } },
      { from: 'client', kind: 'notification', method: 'notifications/cancelled', reqSeq: 3 },
    ]);
    expect(f.requests[0]!.answer).toMatchObject({ kind: 'response', isError: true });
    expect(f.requests[1]!.answer?.error).toEqual({ code: -32002, message: 'not found' });
    expect(f.requests[2]!.cancelled).toBe(true);
    expect(f.requests[2]!.answer).toBeUndefined();
  });

  it('merges the pages of a listing and starts over on a fresh listing', () => {
    const list = (id: number, cursor: boolean) => ({ from: 'client' as const, kind: 'request' as const, id, method: 'tools/list', msg: { jsonrpc: '2.0', id, method: 'tools/list', ...(cursor ? { params: { cursor: 'p2' } } : {}) } });
    const answer = (id: number, reqSeq: number, names: string[]) => ({ from: 'server' as const, kind: 'response' as const, id, method: 'tools/list', reqSeq, msg: { jsonrpc: '2.0', id, result: { tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })) } } });
    const paged = facts([list(1, false), answer(1, 1, ['a', 'b']), list(2, true), answer(2, 3, ['c'])]);
    expect(paged.tools?.map((t) => [t.key, t.at.seq])).toEqual([['a', 2], ['b', 2], ['c', 4]]);
    const refreshed = facts([list(1, false), answer(1, 1, ['a', 'b']), list(2, false), answer(2, 3, ['c'])]);
    expect(refreshed.tools?.map((t) => t.key)).toEqual(['c']);
    expect(refreshed.resources).toBeNull();
  });

  it('takes the lifecycle from the initialize answer, and from the lifecycle event when there is one', () => {
    const init = [
      { from: 'client' as const, kind: 'request' as const, id: 0, method: 'initialize' },
      { from: 'server' as const, kind: 'response' as const, id: 0, method: 'initialize', reqSeq: 1, ms: 5, msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'a', version: '1' } } } },
    ];
    expect(facts(init)).toMatchObject({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'a' } });
    const withEvent = facts([...init, { from: 'proxy', kind: 'event', event: 'lifecycle', protocolVersion: '2025-11-25', serverInfo: { name: 'b' }, serverCapabilities: { prompts: {} } }]);
    expect(withEvent).toMatchObject({ protocolVersion: '2025-11-25', capabilities: { prompts: {} }, serverInfo: { name: 'b' } });
  });

  it('tells an exit while connected from one after stdin closed or a signal', () => {
    const early = facts([{ from: 'proxy', kind: 'event', event: 'exit', code: 3, signal: null }]);
    expect(early.exit).toMatchObject({ code: 3, afterShutdown: false, signalled: false, seq: 1, line: 1 });
    const late = facts([{ from: 'proxy', kind: 'event', event: 'stdin-closed' }, { from: 'proxy', kind: 'event', event: 'exit', code: 0, signal: null }]);
    expect(late.exit).toMatchObject({ afterShutdown: true, signalled: false });
    const killed = facts([{ from: 'proxy', kind: 'event', event: 'signal', signal: 'SIGTERM' }, { from: 'proxy', kind: 'event', event: 'exit', code: null, signal: 'SIGTERM' }, { from: 'proxy', kind: 'event', event: 'end' }]);
    expect(killed.exit).toMatchObject({ afterShutdown: true, signalled: true, signal: 'SIGTERM' });
    expect(killed.ended).toBe(true);
  });

  it('collects notes of records and of batch elements with their location', () => {
    const f = facts([
      { from: 'server', kind: 'invalid', raw: 'hello', notes: [{ code: 'stdout-not-json', text: 't' }] },
      { from: 'client', kind: 'batch', items: [{ kind: 'request', id: 1, method: 'ping', notes: [{ code: 'id-reused', text: 'u' }] }], notes: [{ code: 'batch-not-allowed', text: 'v' }] },
    ]);
    expect(f.notes.map((n) => [n.code, n.seq, n.line])).toEqual([['stdout-not-json', 1, 1], ['batch-not-allowed', 2, 2], ['id-reused', 2, 2]]);
  });
});

describe('readFacts', () => {
  it('reads the last session by default, a named one with --session, and the one a given mcp-tap pid started', async () => {
    const path = join(LOGS, 'check-multi.jsonl');
    expect((await readFacts(path)).session).toBe('multi-bbbb');
    const first = await readFacts(path, { session: 'multi-a' });
    expect(first.session).toBe('multi-aaaa');
    expect(first.requests.map((q) => q.line)).toEqual([3, 7]);
    expect((await readFacts(path, { tapPid: 4100 })).session).toBe('multi-bbbb');
    expect((await readFacts(path, { tapPid: 99999, session: 'multi-aaaa' })).session).toBe('multi-aaaa');
  });

  it('throws a one-line error for an unknown session', async () => {
    await expect(readFacts(join(LOGS, 'check-multi.jsonl'), { session: 'nope' })).rejects.toThrow(/no session nope/);
  });
});
