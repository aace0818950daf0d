/** The rule catalog: every note code has help, ids are unique, and docs/check.md lists every rule id. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules, CHECK_RULES, NOTE_HELP, ruleFor } from '../../src/check/rules.js';
import { LENS_NOTE_CODE_LIST } from '../../src/lens/lenses.js';
import { NOTE_CODE_LIST } from '../../src/session/findings.js';
import { ROOT } from '../helpers/paths.js';

describe('check rules', () => {
  it('gives every note code (the log\'s and the lenses\') a help text, and no help to codes nothing emits', () => {
    expect(Object.keys(NOTE_HELP).sort()).toEqual([...NOTE_CODE_LIST, ...LENS_NOTE_CODE_LIST].sort());
  });

  it('has unique ids, a summary, a help text and an https helpUri (when there is one) for every rule', () => {
    const rules = allRules();
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    expect(rules.length).toBe(NOTE_CODE_LIST.length + LENS_NOTE_CODE_LIST.length + CHECK_RULES.length);
    for (const r of rules) {
      expect(r.summary.length, r.id).toBeGreaterThan(5);
      expect(r.help.length, r.id).toBeGreaterThan(10);
      if (r.helpUri !== undefined) expect(r.helpUri, r.id).toMatch(/^https:\/\//);
      expect(r.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
  });

  it('lists every rule id with its category in docs/check.md', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'check.md'), 'utf8');
    for (const r of allRules()) expect(doc, r.id).toContain(`| \`${r.id}\` | ${r.category} |`);
  });

  it('treats a code it does not know (a newer log) as a finding', () => {
    expect(ruleFor('some-future-code')).toMatchObject({ id: 'some-future-code', category: 'findings' });
    expect(ruleFor('truncated').category).toBe('info');
    expect(ruleFor('stdout-not-json').helpUri).toContain('/basic/transports#stdio');
  });
});
