import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/log/record.js';
import { buildFilter } from '../../src/view/filters.js';
import { colorLevel } from '../../src/view/color.js';
import { jsonLine } from '../../src/view/json-line.js';
import { FollowSelector, Ring, roleOf, SeparatorGate, TailFormatter } from '../../src/view/tail-view.js';
import { parseLogLine } from '../../src/view/tail-run.js';

const records: LogRecord[] = readFileSync(new URL('../fixtures/logs/everything.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as LogRecord);

describe('colorLevel', () => {
  it('FORCE_COLOR wins, then NO_COLOR, then --no-color, then the terminal', () => {
    expect(colorLevel({ env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(0);
    expect(colorLevel({ env: { FORCE_COLOR: 'false' }, isTTY: true })).toBe(0);
    expect(colorLevel({ env: { FORCE_COLOR: '1', NO_COLOR: '1' }, isTTY: false })).toBe(1);
    expect(colorLevel({ env: { FORCE_COLOR: '' }, isTTY: false })).toBe(1);
    expect(colorLevel({ env: { FORCE_COLOR: '3' }, isTTY: false })).toBe(3);
    expect(colorLevel({ env: { NO_COLOR: '1' }, isTTY: true, depth: 24 })).toBe(0);
    expect(colorLevel({ env: { NO_COLOR: '' }, isTTY: true, depth: 8 })).toBe(2);
    expect(colorLevel({ env: {}, isTTY: true, depth: 24, flag: false })).toBe(0);
    expect(colorLevel({ env: {}, isTTY: false, depth: 24 })).toBe(0);
    expect(colorLevel({ env: {}, isTTY: true })).toBe(1);
    expect(colorLevel({ env: {}, isTTY: true, depth: 1 })).toBe(0);
  });
});

describe('jsonLine', () => {
  it('writes DEL, C1 controls, bidi overrides and line separators as \\u escapes; the value is unchanged', () => {
    const v = { s: 'a\x1b[2J\x7f\u009b\u202e\u2028\x07z', n: 1 };
    const line = jsonLine(v);
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f\u2028\u202e]/);
    expect(JSON.parse(line)).toEqual(v);
  });
});

describe('Ring', () => {
  it('keeps the last n items and the header just before them', () => {
    const r = new Ring<string>(2);
    for (const [x, role] of [
      ['H1', 'header'],
      ['a', 'item'],
      ['F1', 'footer'],
      ['H2', 'header'],
      ['b', 'item'],
      ['c', 'item'],
    ] as const)
      r.push(x, role);
    expect(r.take()).toEqual(['H2', 'b', 'c']);
  });

  it('separators do not count; footers between items stay', () => {
    const r = new Ring<string>(2);
    for (const [x, role] of [
      ['H1', 'header'],
      ['a', 'item'],
      ['F1', 'footer'],
      ['H2', 'header'],
      ['b', 'item'],
    ] as const)
      r.push(x, role);
    expect(r.take()).toEqual(['H1', 'a', 'F1', 'H2', 'b']);
  });

  it('collapsing: a session with nothing kept leaves no separators, and memory stays bounded', () => {
    const r = new Ring<string>(1);
    r.push('x', 'item');
    for (let i = 0; i < 10_000; i++) {
      r.push(`H${i}`, 'header');
      r.push(`F${i}`, 'footer');
    }
    expect(r.take()).toEqual(['x']);
    const r2 = new Ring<string>(3);
    for (let i = 0; i < 10_000; i++) r2.push(String(i));
    expect(r2.take()).toEqual(['9997', '9998', '9999']);
  });

  it('without collapsing, separators of empty sessions are kept; n = Infinity keeps all', () => {
    const r = new Ring<string>(Number.POSITIVE_INFINITY, false);
    r.push('H', 'header');
    r.push('F', 'footer');
    expect(r.take()).toEqual(['H', 'F']);
  });
});

describe('SeparatorGate', () => {
  const rec = (session: string, kind: string, event?: string) => ({ session, kind, event }) as unknown as LogRecord;
  it('holds a header until its session shows a record; drops both for a session with nothing shown', () => {
    const g = new SeparatorGate();
    expect(g.pass(rec('a', 'event', 'start'), 'Ha ')).toBeNull();
    expect(g.pass(rec('b', 'event', 'start'), 'Hb ')).toBeNull();
    expect(g.pass(rec('b', 'request'), 'b1 ')).toBe('Hb b1 ');
    expect(g.pass(rec('a', 'event', 'end'), 'Fa ')).toBeNull();
    expect(g.pass(rec('b', 'request'), 'b2 ')).toBe('b2 ');
    expect(g.pass(rec('b', 'event', 'end'), 'Fb ')).toBe('Fb ');
  });
});

describe('TailFormatter and FollowSelector', () => {
  it('formats what passes the filter; JSON mode prints records as they are, redacted when asked', () => {
    const fmt = new TailFormatter({ filter: buildFilter({ kind: ['error'] }), json: true, color: 0, full: false, redact: (r) => ({ ...r, msg: '[R]' }) });
    const out = records.map((r) => fmt.format(r)).filter((x) => x !== null);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!)).toMatchObject({ kind: 'error', seq: 14, msg: '[R]' });
  });

  it('prepare renders lazily: while catching up, only the history kept is rendered', () => {
    let rendered = 0;
    const fmt = new TailFormatter({ filter: () => true, json: false, color: 0, full: false });
    const sel = new FollowSelector({ kind: 'all' }, 2);
    for (const r of records) {
      const later = fmt.prepare(r)!;
      sel.add(r, () => {
        rendered++;
        return later();
      });
    }
    const history = sel.caughtUp();
    expect(rendered).toBe(history.length);
    expect(history.join('')).toContain('end of session s2-bbbb');
  });

  it('notes a newer format version', () => {
    const fmt = new TailFormatter({ filter: () => true, json: false, color: 0, full: false });
    fmt.format({ ...records[0]!, v: 7 });
    expect(fmt.newerVersion).toBe(7);
  });

  it("'last': history is the last n outputs of the session that appeared last; then everything new", () => {
    const sel = new FollowSelector({ kind: 'last' }, 3);
    for (const r of records) expect(sel.add(r, () => `${r.session}#${r.seq}`)).toBeNull();
    expect(sel.caughtUp()).toEqual(['s2-bbbb#7', 's2-bbbb#8', 's2-bbbb#9', 's2-bbbb#10']);
    expect(sel.add({ ...records[0]!, session: 'new' }, () => 'new#1')).toBe('new#1');
    expect(sel.add(records[3]!, () => 's1#4')).toBe('s1#4');
    expect(sel.add(records[3]!, null)).toBeNull();
  });

  it("an id: only that session, before and after catching up", () => {
    const sel = new FollowSelector({ kind: 'id', id: 's1-aaaa' }, 2);
    for (const r of records) sel.add(r, () => `${r.session}#${r.seq}`);
    expect(sel.caughtUp()).toEqual(['s1-aaaa#25', 's1-aaaa#26', 's1-aaaa#27']); // #27, the end, does not count
    expect(sel.add(records[30]!, () => 'x')).toBeNull();
    expect(sel.add(records[0]!, () => 'y')).toBe('y');
  });

  it('roleOf: session start and end are separators', () => {
    expect(records.map(roleOf).filter((r) => r !== 'item')).toEqual(['header', 'footer', 'header', 'footer']);
  });
});

describe('parseLogLine', () => {
  it('a record, a warning for foreign lines (escaped), null for blank lines', () => {
    expect(parseLogLine(JSON.stringify(records[0]) + '\r')).toMatchObject({ seq: 1 });
    expect(parseLogLine('   ')).toBeNull();
    expect(parseLogLine('not json \x1b[2J')).toBe('not JSON (not json \\x1b[2J)');
    expect(parseLogLine('{"a":1}')).toMatch(/^not an mcp-tap record/);
  });
});
