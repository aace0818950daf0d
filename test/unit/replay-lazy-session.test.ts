/**
 * A session loaded from a log file (src/replay/load.ts) keeps only an index of its messages and reads
 * each body again from the file when asked: the messages read that way equal the ones built in memory
 * from the same records (single messages, batch elements, a line that was not JSON), requests with equal
 * params get equal hashes, and a file changed after loading (truncated, rewritten, removed) is an
 * InputError naming the file and the record, not a crash.
 */
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import type { LogRecord } from '../../src/log/record.js';
import { AnswerBook } from '../../src/replay/answer-book.js';
import { loadSession } from '../../src/replay/load.js';
import { buildSession, paramsHash, type RecMsg } from '../../src/replay/recorded.js';
import { tempDir } from '../helpers/paths.js';

const S = 'lazy-1';
const rec = (seq: number, from: string, kind: string, extra: Record<string, unknown>): LogRecord => ({ v: 1, time: 1000 + seq / 4, session: S, seq, from, kind, ...extra }) as LogRecord;

const RECORDS: LogRecord[] = [
  rec(1, 'proxy', 'event', { event: 'start', name: 'calc', command: 'node', args: ['calc.js'], maxLogBytes: 4096 }),
  rec(2, 'client', 'request', { id: 0, method: 'initialize', bytes: 60, msg: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } } }),
  rec(3, 'server', 'response', { id: 0, method: 'initialize', reqSeq: 2, ms: 0.75, bytes: 70, msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'calc', version: '1' } } } }),
  rec(4, 'client', 'batch', {
    bytes: 150,
    items: [
      { kind: 'request', method: 'tools/call', target: 'add' },
      { kind: 'notification', method: 'notifications/progress' },
    ],
    msg: [
      { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
    ],
  }),
  rec(5, 'server', 'response', { id: 'a', method: 'tools/call', target: 'add', reqSeq: 4, ms: 1.5, bytes: 60, msg: { jsonrpc: '2.0', id: 'a', result: { content: [{ type: 'text', text: '3' }] } } }),
  rec(6, 'server', 'invalid', { bytes: 11, raw: 'not json ✓' }),
  rec(7, 'client', 'request', { id: 2, method: 'tools/call', target: 'add', bytes: 90, truncated: true, msg: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { arguments: { b: 2, a: 1 }, name: 'add', _meta: { progressToken: 9 } } } }),
  rec(8, 'proxy', 'event', { event: 'end' }),
];

/** What a test compares of a message: every field replay and mock read. */
const view = (m: RecMsg): Record<string, unknown> => ({
  seq: m.seq,
  index: m.index,
  batchSize: m.batchSize,
  from: m.from,
  kind: m.kind,
  id: m.id,
  method: m.method,
  target: m.target,
  reqSeq: m.reqSeq,
  ms: m.ms,
  time: m.time,
  truncated: m.truncated,
  bytes: m.bytes,
  msg: m.msg,
  raw: m.raw,
});

let dir: string;
let cleanup: () => void;
let file: string;
const warn = (): void => {};

beforeEach(() => {
  ({ dir, cleanup } = tempDir('mcp-tap-lazy-'));
  file = join(dir, 's.jsonrpc.log');
  // another session around it, and a line that is not a record
  const other = { ...RECORDS[1]!, session: 'other-1' };
  writeFileSync(file, [JSON.stringify(other), ...RECORDS.map((r) => JSON.stringify(r)), '', JSON.stringify({ ...other, seq: 9 })].join('\n') + '\n');
});
afterEach(() => cleanup());

describe('a session loaded from a file', () => {
  it('reads each message from the file as the in-memory session holds it', async () => {
    const { session } = await loadSession({ file, session: S, warn }, 'mock');
    const eager = buildSession(RECORDS);
    expect(session.id).toBe(S);
    expect(session.server).toEqual(eager.server);
    expect(session.messages.map(view)).toEqual(eager.messages.map(view));
    // the pairing and the answers read back
    const call = session.messages.find((m) => m.seq === 4 && m.index === 0)!;
    expect(session.answerOf(call)?.msg).toEqual({ jsonrpc: '2.0', id: 'a', result: { content: [{ type: 'text', text: '3' }] } });
    expect(session.messages.find((m) => m.seq === 6)!.raw).toBe('not json ✓');
  });

  it('hashes requests by their params without _meta, whatever the key order', async () => {
    const { session } = await loadSession({ file, session: S, warn }, 'mock');
    const [batched, shortened] = session.messages.filter((m) => m.method === 'tools/call' && m.kind === 'request');
    expect(batched!.paramsHash).toBe(shortened!.paramsHash);
    expect(batched!.paramsHash).toBe(paramsHash({ arguments: { b: 2, a: 1 }, name: 'add' }));
    expect(paramsHash({ name: 'add', arguments: { a: 1, b: 3 } })).not.toBe(batched!.paramsHash);
  });

  it('matches a live request exactly whatever _meta it carries, among requests read from the file', async () => {
    const { session } = await loadSession({ file, session: S, warn }, 'mock');
    const requests = session.messages.filter((m) => m.method === 'tools/call' && m.kind === 'request');
    // the second recorded call first in the book: a match by target alone would pick it
    const book = new AnswerBook([...requests].reverse().map((request) => ({ request, answer: session.answerOf(request), used: 0 })), { byTarget: true });
    const live = { name: 'add', arguments: { a: 1, b: 2 }, _meta: { progressToken: 'live-7' } };
    expect(book.match('tools/call', live)).toMatchObject({ how: 'exact' });
    expect(book.match('tools/call', { ...live, arguments: { a: 1, b: 5 } })).toMatchObject({ how: 'target' });
  });

  it('keeps no body: a message read again after the file is rewritten says the file changed', async () => {
    const { session } = await loadSession({ file, session: S, warn }, 'mock');
    const answer = session.messages.find((m) => m.seq === 5)!;
    // rotated: a new log in its place, other records at those bytes
    writeFileSync(file, RECORDS.map((r) => JSON.stringify({ ...r, seq: r.seq + 100 })).join('\n') + '\n');
    expect(() => answer.msg).toThrow(InputError);
    expect(() => answer.msg).toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} changed after it was read .*record #5 of session ${S}`));
  });

  it('a rotated log whose lines fall at the same bytes, of another session, is caught too', async () => {
    const { session } = await loadSession({ file, session: S, warn }, 'mock');
    const answer = session.messages.find((m) => m.seq === 5)!;
    // the next log in its place: the same layout byte for byte, another session's records
    const same = readFileSync(file, 'utf8').replaceAll(S, 'lazy-2');
    writeFileSync(file, same);
    expect(() => answer.msg).toThrow(InputError);
    expect(() => answer.msg).toThrow(/changed after it was read .*record #5 of session lazy-1/);
  });

  it('a truncated or removed file is an InputError too', async () => {
    const { session } = await loadSession({ file, session: S, warn }, 'replay');
    const last = session.messages.at(-1)!;
    truncateSync(file, 100);
    expect(() => last.msg).toThrow(InputError);
    expect(() => last.msg).toThrow(/changed after it was read \(rotated, truncated or rewritten\?\): record #7/);
    rmSync(file);
    expect(() => session.messages[0]!.raw).toThrow(InputError);
  });
});
