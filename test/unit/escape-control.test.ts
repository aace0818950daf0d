import { describe, expect, it } from 'vitest';
import { escapeControl } from '../../src/text/escape.js';

describe('escapeControl', () => {
  it('leaves ordinary text alone, Unicode included', () => {
    const s = 'plain text – héllo 😀 日本語 \\ "quoted" ~';
    expect(escapeControl(s)).toBe(s);
  });

  it('shows every C0 control as a visible escape, tab, newline and CR by name', () => {
    expect(escapeControl('a\tb\nc\rd')).toBe('a\\tb\\nc\\rd');
    expect(escapeControl('\x1b[2J\x1b]0;title\x07')).toBe('\\x1b[2J\\x1b]0;title\\x07');
    expect(escapeControl('\x00\b\x0b\x0c\x1f')).toBe('\\x00\\x08\\x0b\\x0c\\x1f');
    for (let c = 0; c < 0x20; c++) {
      const out = escapeControl(`<${String.fromCharCode(c)}>`);
      expect(out).toMatch(/^<\\(x[0-9a-f]{2}|[tnr])>$/);
    }
  });

  it('escapes DEL and the C1 controls (CSI U+009B among them)', () => {
    expect(escapeControl('\x7f')).toBe('\\x7f');
    expect(escapeControl('\u009b31m')).toBe('\\x9b31m');
    for (let c = 0x80; c <= 0x9f; c++) expect(escapeControl(String.fromCharCode(c))).toBe(`\\x${c.toString(16)}`);
    expect(escapeControl('\u00a0é')).toBe('\u00a0é'); // the first printable characters after C1
  });

  it('escapes bidi overrides, embeddings, isolates and line separators', () => {
    for (const c of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029]) {
      expect(escapeControl(`x${String.fromCharCode(c)}y`)).toBe(`x\\u${c.toString(16)}y`);
    }
    expect(escapeControl('\u2029\u2069\u206a')).toBe('\\u2029\\u2069\u206a');
  });

  it('leaves no unsafe character in any string', () => {
    let all = '';
    for (let c = 0; c < 0x2100; c++) all += String.fromCharCode(c);
    const out = escapeControl(all);
    expect(out).not.toMatch(/[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    // escaping is stable when called twice on its own output
    expect(escapeControl(out)).toBe(out);
  });
});
