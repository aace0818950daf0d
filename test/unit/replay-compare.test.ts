import { describe, expect, it } from 'vitest';
import { compareJson, compareMessages, deepEqual, type CompareOptions } from '../../src/replay/compare.js';
import { parsePattern } from '../../src/replay/json-path.js';
import { cutString, matchesCut, recordLargerAdvice } from '../../src/replay/shortened.js';

const lenient: CompareOptions = { ignore: [], volatile: true };
const strict: CompareOptions = { ignore: [], volatile: false };
const paths = (r: { differences: Array<{ path: string }> }): string[] => r.differences.map((d) => d.path);

describe('compareJson', () => {
  it('finds nothing in equal values, whatever the member order', () => {
    const r = compareJson({ a: 1, b: { c: [1, 2, { d: 'x' }] } }, { b: { c: [1, 2, { d: 'x' }] }, a: 1 }, strict);
    expect(r).toEqual({ differences: [], ignored: 0, partial: false });
  });

  it('reports each difference with its JSON path and both values', () => {
    const r = compareJson(
      { result: { content: [{ type: 'text', text: '2 + 3 = 5' }], structuredContent: { sum: 5 } } },
      { result: { content: [{ type: 'text', text: '2 + 3 = 6' }], structuredContent: { sum: 6 } } },
      strict,
    );
    expect(r.differences).toEqual([
      { path: 'result.content[0].text', op: 'changed', recorded: '2 + 3 = 5', replayed: '2 + 3 = 6' },
      { path: 'result.structuredContent.sum', op: 'changed', recorded: 5, replayed: 6 },
    ]);
  });

  it('tells added, removed and type-changed members apart', () => {
    const r = compareJson({ a: 1, gone: true, n: 1 }, { a: 1, n: '1', isError: true }, strict);
    expect(r.differences).toEqual([
      { path: 'gone', op: 'removed', recorded: true },
      { path: 'n', op: 'type', recorded: 1, replayed: '1' },
      { path: 'isError', op: 'added', replayed: true },
    ]);
    expect(paths(compareJson({ a: null }, { a: {} }, strict))).toEqual(['a']);
    expect(compareJson([1], { 0: 1 }, strict).differences[0]!.op).toBe('type');
  });

  it('aligns arrays of different lengths, so one new element is one difference', () => {
    const tools = ['add', 'echo', 'sum', 'time'].map((name) => ({ name }));
    const withNew = [tools[0], { name: 'new' }, ...tools.slice(1)];
    expect(compareJson({ tools }, { tools: withNew }, strict).differences).toEqual([{ path: 'tools[1]', op: 'added', replayed: { name: 'new' } }]);
    expect(compareJson({ tools: withNew }, { tools }, strict).differences).toEqual([{ path: 'tools[1]', op: 'removed', recorded: { name: 'new' } }]);
    // a changed element next to an inserted one: reported as a change and an addition
    const changed = [{ name: 'add' }, { name: 'x' }, { name: 'echo!' }, { name: 'sum' }, { name: 'time' }];
    const d = compareJson({ tools }, { tools: changed }, strict).differences;
    expect(d).toHaveLength(2);
    expect(d.map((x) => x.op).sort()).toEqual(['added', 'changed']);
  });

  it('aligns an insertion and a removal that leave the length unchanged', () => {
    const tools = Array.from({ length: 50 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
    const shifted = [...tools.slice(0, 20), { name: 'new' }, ...tools.slice(20, 49)];
    expect(compareJson({ tools }, { tools: shifted }, strict).differences).toEqual([
      { path: 'tools[20]', op: 'added', replayed: { name: 'new' } },
      { path: 'tools[49]', op: 'removed', recorded: tools[49] },
    ]);
  });

  it('compares same-length arrays element by element', () => {
    expect(paths(compareJson([1, 2, 3], [1, 5, 3], strict))).toEqual(['[1]']);
  });
});

describe('volatile fields (default) and --strict', () => {
  it('leaves _meta out at any depth, and counts what it left out', () => {
    const a = { result: { _meta: { trace: 'a' }, content: [{ text: 'x', _meta: { n: 1 } }] } };
    const b = { result: { _meta: { trace: 'b' }, content: [{ text: 'x', _meta: { n: 2 } }] } };
    expect(compareJson(a, b, lenient)).toEqual({ differences: [], ignored: 2, partial: false });
    expect(paths(compareJson(a, b, strict))).toEqual(['result._meta.trace', 'result.content[0]._meta.n']);
    // a _meta only on one side is left out too
    expect(compareJson({ result: {} }, { result: { _meta: { x: 1 } } }, lenient).differences).toEqual([]);
  });

  it('leaves out ISO 8601 timestamps inside strings, but not the rest of the string', () => {
    const r = compareJson({ t: 'It is 2026-01-02T10:00:00.123Z here' }, { t: 'It is 2026-03-04T11:22:33Z here' }, lenient);
    expect(r).toEqual({ differences: [], ignored: 1, partial: false });
    expect(paths(compareJson({ t: 'It is 2026-01-02T10:00:00Z here' }, { t: 'It was 2026-01-02T10:00:01Z here' }, lenient))).toEqual(['t']);
    expect(paths(compareJson({ t: '2026-01-02 10:00:00+01:00' }, { t: '2026-01-02 10:00:05+01:00' }, strict))).toEqual(['t']);
    expect(compareJson({ t: '2026-01-02 10:00:00+01:00' }, { t: '2026-01-02 10:00:05+01:00' }, lenient).differences).toEqual([]);
  });

  it('leaves out values under time-like keys when their type stays the same', () => {
    const r = compareJson({ createdAt: 1, updated_at: 'a', timestamp: 5, startTime: 1, date: 'x' }, { createdAt: 2, updated_at: 'b', timestamp: 6, startTime: 2, date: 'y' }, lenient);
    expect(r.differences).toEqual([]);
    expect(r.ignored).toBe(5);
    expect(paths(compareJson({ createdAt: 1 }, { createdAt: 'now' }, lenient))).toEqual(['createdAt']);
    // keys that merely contain the letters are not time keys
    expect(paths(compareJson({ format: 1, What: 1, data: 1 }, { format: 2, What: 2, data: 2 }, lenient))).toEqual(['format', 'What', 'data']);
  });

  it('leaves out result.requestState (2026-07-28), only there', () => {
    expect(compareJson({ result: { requestState: 'a' } }, { result: { requestState: 'b' } }, lenient).differences).toEqual([]);
    expect(paths(compareJson({ result: { x: { requestState: 'a' } } }, { result: { x: { requestState: 'b' } } }, lenient))).toEqual(['result.x.requestState']);
  });
});

describe('--ignore', () => {
  it('leaves out what the patterns name and counts it', () => {
    const opts: CompareOptions = { ignore: [parsePattern('result.content[*].text')], volatile: true };
    const r = compareJson({ result: { content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] } }, { result: { content: [{ type: 'text', text: 'c' }, { type: 'image', text: 'd' }] } }, opts);
    expect(paths(r)).toEqual(['result.content[1].type']);
    expect(r.ignored).toBe(2);
    expect(compareJson({ a: { b: 1 } }, { a: { b: 2, c: 3 } }, { ignore: [parsePattern('$..b'), parsePattern('a.c')], volatile: false }).differences).toEqual([]);
  });
});

describe('messages', () => {
  it('compare without their ids: the replay uses its own', () => {
    expect(compareMessages({ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 'replay-1', result: {} }, strict).differences).toEqual([]);
    expect(paths(compareMessages({ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }, strict))).toEqual(['result', 'error']);
  });
});

describe('shortened recordings', () => {
  const shortOpts: CompareOptions = { ignore: [], volatile: true, shortened: true };
  const cut = (s: string, keep: number): string => `${s.slice(0, keep)}…[truncated: ${Buffer.byteLength(JSON.stringify(s).slice(1, -1))} bytes]`;

  it('compare a cut string by its kept head and its size, and say the comparison was partial', () => {
    const whole = 'x'.repeat(5000);
    expect(compareJson({ text: cut(whole, 100) }, { text: whole }, shortOpts)).toEqual({ differences: [], ignored: 0, partial: true });
    const d1 = compareJson({ text: cut(whole, 100) }, { text: `y${whole.slice(1)}` }, shortOpts).differences;
    expect(d1).toMatchObject([{ path: 'text', op: 'changed', note: 'the part the log kept differs' }]);
    const d2 = compareJson({ text: cut(whole, 100) }, { text: `${whole}x` }, shortOpts).differences;
    expect(d2).toMatchObject([{ path: 'text', note: 'the recorded string had 5000 bytes' }]);
  });

  it('count escaped and non-ASCII bytes the way the writer did (either escaping)', () => {
    const s = `é"\n${'z'.repeat(300)}`;
    const raw = Buffer.byteLength(JSON.stringify(s).slice(1, -1));
    expect(matchesCut({ head: 'é', rawBytes: raw }, s)).toBe('same');
    const asciiEscaped = JSON.stringify(s).slice(1, -1).replace('é', '\\u00e9').length;
    expect(matchesCut({ head: 'é', rawBytes: asciiEscaped }, s)).toBe('same');
    expect(cutString('abc…[truncated: 12 bytes]')).toEqual({ head: 'abc', rawBytes: 12 });
    expect(cutString('abc')).toBeNull();
  });

  it('compare only the elements and members the log kept', () => {
    const rec = { list: [1, 2, '…[elided: 300 bytes]'], obj: { a: 1, '…': '[elided: 99 bytes]' } };
    expect(compareJson(rec, { list: [1, 2, 3, 4], obj: { a: 1, b: 2, c: 3 } }, shortOpts)).toEqual({ differences: [], ignored: 0, partial: true });
    expect(paths(compareJson(rec, { list: [1, 9, 3], obj: { a: 2 } }, shortOpts))).toEqual(['list[1]', 'obj.a']);
    expect(paths(compareJson(rec, { list: [1], obj: { a: 1 } }, shortOpts))).toEqual(['list[1]']);
  });

  it('take markers literally when the record is not shortened', () => {
    expect(paths(compareJson({ t: 'a…[truncated: 3 bytes]' }, { t: 'abc' }, lenient))).toEqual(['t']);
  });

  it('advise a --max-log-bytes that would have kept the message whole', () => {
    expect(recordLargerAdvice(5073)).toContain('--max-log-bytes 5120');
    expect(recordLargerAdvice(10)).toContain('--max-log-bytes 1024');
    expect(recordLargerAdvice(undefined)).toContain('larger --max-log-bytes');
  });
});

describe('deepEqual', () => {
  it('ignores member order and tells types apart', () => {
    expect(deepEqual({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: '1' })).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: undefined }, { b: undefined })).toBe(false);
  });
});
