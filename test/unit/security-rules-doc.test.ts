/**
 * docs/check.md documents every security rule with its severity and an example (issue 30), and the
 * examples of the text rules are caught by the rule they illustrate (the doc's `\u…` escapes decoded).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findInjection } from '../../src/lens/security/injection.js';
import { SECURITY_RULES } from '../../src/lens/security/rules.js';
import { confusableName, findHiddenUnicode } from '../../src/lens/security/unicode.js';
import { ROOT } from '../helpers/paths.js';

const doc = readFileSync(join(ROOT, 'docs', 'check.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Security lens'), doc.indexOf('## Context cost'));
const rows = new Map([...section.matchAll(/^\| `([a-z-]+)` \| (critical|high|medium|low) (\d+\.\d) \| (.+) \|$/gm)].map((m) => [m[1]!, { severity: m[2], score: Number(m[3]), example: m[4]! }]));
const decode = (s: string) => s.replace(/\\u\{([0-9A-Fa-f]+)\}|\\u([0-9A-Fa-f]{4})/g, (_, a: string, b: string) => String.fromCodePoint(parseInt(a ?? b, 16)));
const firstCode = (cell: string) => decode(/`([^`]+)`/.exec(cell)![1]!);

describe('docs/check.md security rules', () => {
  it('lists every rule with its severity and score, and no other', () => {
    expect([...rows.keys()].sort()).toEqual(SECURITY_RULES.map((r) => r.id).sort());
    for (const r of SECURITY_RULES) expect(rows.get(r.id), r.id).toMatchObject({ severity: r.severity, score: r.score });
  });

  it.each(['unicode-tag-characters', 'unicode-bidi-control', 'unicode-zero-width'])('%s: its example is caught', (id) => {
    expect(findHiddenUnicode(firstCode(rows.get(id)!.example)).map((f) => f.rule)).toContain(id);
  });

  it('confusable-tool-name: its example is caught', () => {
    expect(confusableName(firstCode(rows.get('confusable-tool-name')!.example))).toBeDefined();
  });

  it.each(['injection-override', 'injection-pseudo-tag', 'injection-secret-reference', 'injection-cross-tool'])('%s: its example is caught', (id) => {
    expect(findInjection(firstCode(rows.get(id)!.example), new Set(['x'])).map((m) => m.rule)).toContain(id);
  });
});
