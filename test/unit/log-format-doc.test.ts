/**
 * docs/log-format.md is the public contract: its example records must be valid records, it must show
 * every kind and every event, and it must document exactly the note codes the analysis can emit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, KINDS, validateRecord } from '../../src/log/validate-record.js';
import { LENS_NOTE_CODE_LIST } from '../../src/lens/lenses.js';
import { NOTE_CODE_LIST } from '../../src/session/findings.js';
import { recordLevel } from '../../src/log/level.js';
import type { LogRecord } from '../../src/log/record.js';
import { handshake, harness } from './helpers/session-harness.js';

const doc = readFileSync(new URL('../../docs/log-format.md', import.meta.url), 'utf8');
const fences = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
const examples = fences.map((f) => JSON.parse(f.trim()) as Record<string, unknown>);

describe('docs/log-format.md', () => {
  it('has example records, one JSON line per fence', () => {
    expect(fences.length).toBeGreaterThan(20);
    for (const f of fences) expect(f.trim().split('\n')).toHaveLength(1);
  });

  it('every example is a valid record', () => {
    for (const ex of examples) expect({ record: ex, problems: validateRecord(ex) }).toEqual({ record: ex, problems: [] });
  });

  it("every example carries the level the code gives it (pino's numbers), after the analysis' members", () => {
    for (const ex of examples) {
      expect({ record: ex, level: ex['level'] }).toEqual({ record: ex, level: recordLevel(ex as LogRecord) });
      // only the message and, on HTTP mode's message records, their transport facts follow it
      const keys = Object.keys(ex).filter((k) => k !== 'msg' && (k !== 'http' || ex['kind'] === 'event'));
      expect(keys[keys.length - 1]).toBe('level');
    }
    const levels = new Set(examples.map((e) => e['level']));
    expect([...levels].sort()).toEqual([30, 40, 50]);
  });

  it('shows every kind and every event name', () => {
    const kinds = new Set(examples.map((e) => e['kind']));
    for (const k of KINDS) expect(kinds, `kind ${k}`).toContain(k);
    const events = new Set(examples.map((e) => e['event']));
    for (const e of EVENT_NAMES) expect(events, `event ${e}`).toContain(e);
    for (const e of EVENT_NAMES) expect(doc).toContain(`| \`${e}\` |`);
  });

  it('documents exactly the note codes the analysis and the lenses can emit', () => {
    const codes = [...NOTE_CODE_LIST, ...LENS_NOTE_CODE_LIST];
    const table = doc.slice(doc.indexOf('## Notes'));
    const documented = [...table.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    expect([...documented].sort()).toEqual([...codes].sort());
    for (const ex of examples) {
      for (const n of (ex['notes'] as { code: string }[] | undefined) ?? []) expect(NOTE_CODE_LIST).toContain(n.code);
    }
  });

  it('the Tasks example is exactly what the analysis writes for its messages (after a handshake)', () => {
    const section = doc.slice(doc.indexOf('## Tasks'), doc.indexOf('## Large lines'));
    const lines = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
    expect(lines.length).toBeGreaterThan(5);
    const shown = lines.map((l) => JSON.parse(l) as LogRecord);
    const h = handshake(harness({ id: shown[0]!.session }), '2025-11-25');
    for (const r of shown) h.send(r.from as 'client' | 'server', JSON.stringify(r.msg), r.time - 1_000_000);
    expect(h.lines.slice(-lines.length).map((l) => l.trimEnd())).toEqual(lines);
    expect(h.codes()).toEqual([]);
  });

  it('states the versioning rule and byte counting', () => {
    expect(doc).toMatch(/must ignore fields they do not know/);
    expect(doc).toMatch(/must accept records with a higher `v`/);
    expect(doc).toMatch(/\*\*without\*\* its terminating LF/);
  });
});
