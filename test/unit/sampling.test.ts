/**
 * Which records of a long session the Markdown and HTML exports show (src/transcript/sampling.ts), on a
 * session of 3,000 answered calls: the first and the last 1,000 records whole; in the middle, a call
 * that went wrong is shown with its request, its answer and a duplicate answer that came later, although
 * the sample would have skipped that call; a record with two finding codes is shown while one of them has
 * room among the first 100 of its code. Each case is set against the same session without the fault,
 * where the same records are left out.
 */
import { describe, expect, it } from 'vitest';
import { SamplePlanner, SampleSelector } from '../../src/transcript/sampling.js';
import type { LogRecord, Note } from '../../src/log/record.js';

const PAIRS = 3000;
const T0 = 1_767_258_000_000;

interface Fault {
  /** The answer to call k is an error (code -32603). */
  errorAt?: number;
  /** A second answer to call k follows the first (a duplicate-answer finding). */
  duplicateAt?: number;
  /** Notes on the request of call k. */
  notesAt?: { k: number; notes: Note[] };
  /** Notes on the requests of calls 0..99. */
  earlyNotes?: Note[];
}

/** The session's records, and the seq of each call's request and answer. */
function session(f: Fault = {}): { records: LogRecord[]; call: (k: number) => { request: number; answer: number; duplicate?: number } } {
  const records: LogRecord[] = [];
  const calls: Array<{ request: number; answer: number; duplicate?: number }> = [];
  const add = (r: Record<string, unknown>) => {
    const seq = records.length + 1;
    records.push({ v: 1, time: T0 + seq, session: 'long-1', seq, ...r } as LogRecord);
    return seq;
  };
  add({ from: 'proxy', kind: 'event', event: 'start', name: 'long', command: 'node', args: ['s.js'] });
  for (let k = 0; k < PAIRS; k++) {
    const notes = f.notesAt?.k === k ? f.notesAt.notes : k < 100 ? f.earlyNotes : undefined;
    const request = add({ from: 'client', kind: 'request', id: k, method: 'tools/call', target: 'echo', bytes: 60, ...(notes ? { notes } : {}), msg: { jsonrpc: '2.0', id: k, method: 'tools/call', params: { name: 'echo' } } });
    const answer =
      f.errorAt === k
        ? add({ from: 'server', kind: 'error', id: k, method: 'tools/call', target: 'echo', reqSeq: request, ms: 1, bytes: 70, msg: { jsonrpc: '2.0', id: k, error: { code: -32603, message: 'boom' } } })
        : add({ from: 'server', kind: 'response', id: k, method: 'tools/call', target: 'echo', reqSeq: request, ms: 1, bytes: 60, msg: { jsonrpc: '2.0', id: k, result: { content: [] } } });
    const c: { request: number; answer: number; duplicate?: number } = { request, answer };
    if (f.duplicateAt === k) {
      c.duplicate = add({ from: 'server', kind: 'response', id: k, method: 'tools/call', target: 'echo', reqSeq: request, bytes: 60, notes: [{ code: 'duplicate-answer', text: 'a second answer' }], msg: { jsonrpc: '2.0', id: k, result: { content: [] } } });
    }
    calls.push(c);
  }
  add({ from: 'proxy', kind: 'event', event: 'end', pendingCount: 0, exitCode: 0 });
  return { records, call: (k) => calls[k]! };
}

/** The seqs the exports show, by the two passes they make. */
function shown(records: LogRecord[]): Set<number> {
  const planner = new SamplePlanner();
  for (const r of records) planner.add(r);
  const plans = planner.finish();
  expect(plans[0]!.sample).not.toBeNull();
  const selector = new SampleSelector(plans);
  const kept = new Set<number>();
  for (const r of records) if (selector.take(r)) kept.add(r.seq);
  return kept;
}

/** A call in the middle of the session that the sample leaves out when nothing is wrong with it. */
function skippedCall(): number {
  const { records, call } = session();
  const kept = shown(records);
  for (let k = 1000; k < 2000; k++) if (!kept.has(call(k).request) && !kept.has(call(k).answer)) return k;
  throw new Error('the sample kept every call of the middle');
}

describe('a sampled session', () => {
  it('shows its first and last 1,000 records whole', () => {
    const { records } = session();
    expect(records).toHaveLength(6002);
    const kept = shown(records);
    for (let seq = 1; seq <= 1000; seq++) expect(kept.has(seq), `seq ${seq}`).toBe(true);
    for (let seq = 5003; seq <= 6002; seq++) expect(kept.has(seq), `seq ${seq}`).toBe(true);
    expect(kept.size).toBeLessThan(4000);
  });

  it('shows a call of the middle that failed, request and answer, which it skips when the call succeeds', () => {
    const k = skippedCall();
    const { records, call } = session({ errorAt: k });
    const kept = shown(records);
    expect([kept.has(call(k).request), kept.has(call(k).answer)]).toEqual([true, true]);
  });

  it('shows a duplicate answer of the middle, with the call it answers again', () => {
    const k = skippedCall();
    const { records, call } = session({ duplicateAt: k });
    const kept = shown(records);
    const c = call(k);
    expect([kept.has(c.request), kept.has(c.answer), kept.has(c.duplicate!)]).toEqual([true, true, true]);
  });

  it('shows a record with two finding codes while one of them has room, not one whose only code is full', () => {
    const k = skippedCall();
    const early: Note[] = [{ code: 'method-not-in-version', text: 'x' }];
    const both = session({ earlyNotes: early, notesAt: { k, notes: [...early, { code: 'id-reused', text: 'y' }] } });
    expect(shown(both.records).has(both.call(k).request)).toBe(true);
    const full = session({ earlyNotes: early, notesAt: { k, notes: early } });
    expect(shown(full.records).has(full.call(k).request)).toBe(false);
  });
});
