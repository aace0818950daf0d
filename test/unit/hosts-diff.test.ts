import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/hosts/unified-diff.js';

/** Applies a unified diff made by unifiedDiff (lines without their endings) to the old line list. */
function apply(oldLines: string[], diff: string): string[] {
  const out: string[] = [];
  let pos = 0;
  const lines = diff.split('\n').slice(2);
  for (let i = 0; i < lines.length; i++) {
    const m = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(lines[i]!);
    if (!m) continue;
    const start = Number(m[2]) === 0 ? Number(m[1]) : Number(m[1]) - 1;
    while (pos < start) out.push(oldLines[pos++]!);
    for (i++; i < lines.length && !lines[i]!.startsWith('@@') && lines[i] !== ''; i++) {
      const op = lines[i]![0];
      const text = lines[i]!.slice(1);
      if (op === ' ') {
        expect(oldLines[pos]).toBe(text);
        out.push(text);
        pos++;
      } else if (op === '-') {
        expect(oldLines[pos]).toBe(text);
        pos++;
      } else out.push(text);
    }
    i--;
  }
  while (pos < oldLines.length) out.push(oldLines[pos++]!);
  return out;
}

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', 'f')).toBe('');
  });

  it('shows a change with three lines of context', () => {
    const before = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n';
    const after = 'l1\nl2\nl3\nl4\nL5\nl6\nl7\nl8\n';
    expect(unifiedDiff(before, after, 'cfg.json')).toBe('--- cfg.json\n+++ cfg.json\n@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n');
  });

  it('applying the diff to the old text gives the new text (property)', () => {
    const line = fc.constantFrom('a', 'b', 'c', '{', '}', '  "x": 1,');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 30 }), (a, b) => {
        const before = a.map((l) => `${l}\n`).join('');
        const after = b.map((l) => `${l}\n`).join('');
        const d = unifiedDiff(before, after, 'f');
        expect(apply(a, d)).toEqual(before === after ? a : b);
      }),
      { numRuns: 300 },
    );
  });

  it('stays cheap for a large file with a small change', () => {
    const big = Array.from({ length: 50_000 }, (_, i) => `  "k${i}": ${i},\n`).join('');
    const changed = big.replace('"k25000": 25000', '"k25000": 0');
    const d = unifiedDiff(big, changed, 'f');
    expect(d.split('\n').filter((l) => /^[-+] /.test(l))).toEqual(['-  "k25000": 25000,', '+  "k25000": 0,']);
  });
});
