/**
 * The fast path (scanEnvelope) must never disagree with the general path (JSON.parse + classify): it
 * only accepts what JSON.parse accepts, classifies it the same way, and a session gives the same records
 * with it as without it — on real session logs, on generated messages and on mutated bytes.
 */
import { isUtf8 } from 'node:buffer';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classify } from '../../src/protocol/classify.js';
import { FAST_PATH_MAX_BYTES, scanEnvelope } from '../../src/protocol/envelope-scan.js';
import { serializeRecord } from '../../src/log/serialize.js';
import { Session } from '../../src/session/session.js';
import { readRecords } from '../helpers/log.js';
import { ROOT } from '../helpers/paths.js';

const parses = (b: Buffer): boolean => {
  try {
    JSON.parse(b.toString('utf8'));
    return true;
  } catch {
    return false;
  }
};

/** What both paths must agree on for an accepted line; true when the scanner accepted it. */
function agree(line: Buffer): boolean {
  const fast = scanEnvelope(line);
  if (fast === null) return false;
  expect(parses(line), `scanner accepted invalid JSON: ${line.toString('utf8').slice(0, 200)}`).toBe(true);
  expect(isUtf8(line), 'scanner accepted invalid UTF-8').toBe(true);
  expect(line.includes(0x0d), 'scanner accepted a CR').toBe(false);
  const full = classify(JSON.parse(line.toString('utf8')));
  expect(fast.kind).toBe(full.kind);
  expect(fast.shape).toBe(full.shape);
  expect(fast.id).toStrictEqual(full.id);
  expect(fast.method).toBe(full.method);
  expect(fast.hasId).toBe(full.hasId);
  expect(fast.nullId).toBe(full.nullId);
  expect(fast.both).toBe(full.both);
  expect(fast.defect).toBe(full.defect);
  // the light params / result hold exactly the kept scalar members, with JSON.parse's values
  for (const [light, whole, keys] of [
    [fast.params, full.params, ['name', 'uri', 'progressToken', 'progress']],
    [fast.result, full.result, ['isError']],
  ] as const) {
    if (light === undefined) continue;
    for (const k of keys) expect((light as Record<string, unknown>)[k]).toStrictEqual((whole as Record<string, unknown>)[k]);
  }
  return true;
}

/** Runs lines through a session with and without the fast path; the serialized records must be identical. */
function sameRecords(lines: Array<{ from: 'client' | 'server'; data: Buffer }>): void {
  const run = (fastPath: boolean): string[] => {
    const out: string[] = [];
    const s = new Session({ id: 't', fastPath }, (o) => out.push(serializeRecord(o.record, o.msgText)));
    let t = 1000;
    for (const l of lines) s.onLine(l.from, { bytes: l.data.length, data: l.data }, (t += 1.5));
    s.finish(t + 1);
    return out;
  };
  expect(run(true)).toEqual(run(false));
}

const scalar = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const key = fc.oneof(
  fc.constantFrom('name', 'uri', 'progressToken', 'progress', 'isError', '_meta', 'task', 'resultType', 'requestState', 'inputResponses', 'arguments', 'content', 'requestId', 'cursor'),
  fc.string({ maxLength: 8 }),
);
const members = fc.dictionary(key, fc.oneof({ weight: 3, arbitrary: scalar }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }), { maxKeys: 5 });
const method = fc.constantFrom('tools/call', 'resources/read', 'prompts/get', 'ping', 'notifications/progress', 'notifications/message', 'notifications/cancelled', 'initialize', 'server/discover', 'x/y');
const id = fc.oneof(fc.integer({ min: -5, max: 1e6 }), fc.string({ maxLength: 6 }), fc.constant(null), fc.double({ noNaN: true }), fc.constant(1e400));
const message = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id, method, params: members }, { requiredKeys: ['jsonrpc', 'method'] }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, result: members }, { requiredKeys: ['jsonrpc', 'id'] }),
  fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0', 2), id, method, result: members, error: fc.jsonValue({ maxDepth: 2 }), extra: scalar }),
);
/** JSON text the way peers write it: compact, spaced, or with escapes where JSON.stringify would not put them. */
const spelled = fc.tuple(message, fc.constantFrom('compact', 'spaced', 'escaped')).map(([m, how]) => {
  const text = how === 'spaced' ? JSON.stringify(m, null, 1).replace(/\n/g, ' ') : JSON.stringify(m);
  return how === 'escaped' ? text.replace(/[a-z]/g, (c) => (c === 'a' ? '\\u0061' : c)) : text;
});

describe('envelope scanner', () => {
  it('classifies the common messages without the general path', () => {
    const req = scanEnvelope(Buffer.from('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"x":"\\"q\\""}}}'));
    expect(req).toMatchObject({ kind: 'request', id: 7, method: 'tools/call', params: { name: 'echo' } });
    const res = scanEnvelope(Buffer.from('{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"é"}],"isError":true}}'));
    expect(res).toMatchObject({ kind: 'response', id: 'a', result: { isError: true } });
    const note = scanEnvelope(Buffer.from(' { "jsonrpc" : "2.0" , "method" : "notifications/progress" , "params" : { "progressToken" : "t" , "progress" : 0.5 } } '));
    expect(note).toMatchObject({ kind: 'notification', method: 'notifications/progress', params: { progressToken: 't', progress: 0.5 } });
  });

  it('leaves errors, batches, lifecycle methods, _meta, duplicates and oddities to the general path', () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}',
      '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1}}}',
      '{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}',
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}',
      '{"jsonrpc":"2.0","id":1,"method":"ping","x":1}',
      '{"jsonrpc":"2.0","id":1,"result":{"task":{}}}',
      '{"json\\u0072pc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":1,"method":"ping"} x',
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"name":"a\tb"}}',
      '{"jsonrpc":"2.0","id":01,"method":"ping"}',
    ]) {
      expect(scanEnvelope(Buffer.from(text)), text).toBeNull();
    }
    expect(scanEnvelope(Buffer.alloc(FAST_PATH_MAX_BYTES + 1, 0x20))).toBeNull();
    // invalid UTF-8 inside a string (a lone continuation byte, a truncated sequence), and a CR as whitespace
    for (const bytes of [[0x80], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      const line = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"x","params":{"name":"a'), Buffer.from(bytes), Buffer.from('"}}')]);
      expect(scanEnvelope(line)).toBeNull();
    }
    expect(scanEnvelope(Buffer.from('{"jsonrpc":"2.0",\r"id":1,"method":"x"}'))).toBeNull();
    expect(scanEnvelope(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"x","params":{"name":"é€😀"}}'))).toMatchObject({ params: { name: 'é€😀' } });
  });

  it('agrees with JSON.parse + classify on generated messages', () => {
    let accepted = 0;
    fc.assert(
      fc.property(spelled, (text) => {
        if (agree(Buffer.from(text, 'utf8'))) accepted++;
      }),
      { numRuns: 3000 },
    );
    // the generator must reach the fast path often, or this test proves nothing
    expect(accepted).toBeGreaterThan(300);
  });

  it('never accepts a line JSON.parse rejects (random byte edits of valid messages)', () => {
    const edited = fc.tuple(spelled, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'insert', 'delete')), { minLength: 1, maxLength: 3 })).map(([text, edits]) => {
      let b = Buffer.from(text, 'utf8');
      for (const [at, byte, op] of edits) {
        const i = at % (b.length + 1);
        if (op === 'set' && i < b.length) b[i] = byte;
        else if (op === 'insert') b = Buffer.concat([b.subarray(0, i), Buffer.from([byte]), b.subarray(i)]);
        else b = Buffer.concat([b.subarray(0, i), b.subarray(i + 1)]);
      }
      return b;
    });
    fc.assert(
      fc.property(edited, (b) => {
        if (b.includes(0x0a)) return; // never a line
        agree(b);
      }),
      { numRuns: 5000 },
    );
  });

  it('gives the same records with and without the fast path (generated sessions)', () => {
    const line = fc.tuple(fc.constantFrom<'client' | 'server'>('client', 'server'), spelled).map(([from, text]) => ({ from, data: Buffer.from(text, 'utf8') }));
    fc.assert(fc.property(fc.array(line, { maxLength: 40 }), (lines) => sameRecords(lines)), { numRuns: 300 });
  });

  it('gives the same records with and without the fast path (recorded sessions)', () => {
    for (const name of ['everything.jsonl', 'check-problems.jsonl', 'check-live.jsonl', 'report-basic.jsonl', 'replay-calc-bug.jsonl']) {
      const lines = readRecords(join(ROOT, 'test', 'fixtures', 'logs', name))
        .filter((r) => (r.from === 'client' || r.from === 'server') && (r.msg !== undefined || typeof r.raw === 'string'))
        .map((r) => ({ from: r.from as 'client' | 'server', data: Buffer.from(r.msg !== undefined ? JSON.stringify(r.msg) : r.raw!, 'utf8') }));
      expect(lines.length, name).toBeGreaterThan(3);
      sameRecords(lines);
    }
  });
});
