/**
 * A log record whose known fields have the wrong type — `method` an object, `notes` holding null, `time`
 * past what a Date holds (a hand edit, another writer, damage) — used to pass the readers' envelope check
 * and reach code that calls string, array and date methods on them: export (Markdown, HTML, OTLP), tail,
 * stats, baseline and diff stopped with `internal error` (exit 70) or `cannot read <log> (TypeError: …)`.
 * Such a record is now skipped with the warning a foreign line gets, naming the field, and the rest shown.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapSandbox } from '../helpers/run-tap.js';
import { ROOT } from '../helpers/paths.js';

const box = tapSandbox('mcp-tap-wrong-types-');

/** The first session of the everything fixture: line 9 is a tools/call request, line 22 a batch. */
const LINES = readFileSync(join(ROOT, 'test', 'fixtures', 'logs', 'everything.jsonl'), 'utf8').split('\n').slice(0, 27);

type Rec = Record<string, unknown>;
const CASES: [string, number, (r: Rec) => void, string][] = [
  ['method is an object', 9, (r) => (r['method'] = { a: 1 }), 'method is not a string'],
  ['target is a number', 9, (r) => (r['target'] = 42), 'target is not a string'],
  ['notes hold null', 9, (r) => (r['notes'] = [null]), 'notes[0] is not a {code, text} finding'],
  ['a note code is a number', 9, (r) => (r['notes'] = [{ code: 7, text: 'x' }]), 'notes[0] is not a {code, text} finding'],
  ['time is past what a Date holds', 9, (r) => (r['time'] = 1e300), 'time is not a time (epoch ms)'],
  ['retryOf is an object', 9, (r) => (r['retryOf'] = {}), 'retryOf is not a whole number'],
  ['seq is a fraction', 9, (r) => (r['seq'] = 9.5), 'seq is not a whole number'],
  ['items is a string', 22, (r) => (r['items'] = 'x'), 'items is not an array'],
  ['a batch element is null', 22, (r) => (r['items'] = [null]), 'items[0] is not a batch element'],
];

const COMMANDS: string[][] = [['export'], ['export', '--format', 'html'], ['export', '--format', 'otlp', '--otlp-content'], ['tail', '--full'], ['stats', '--json'], ['check'], ['baseline', 'save'], ['diff']];

function damaged(name: string, line: number, edit: (r: Rec) => void): string {
  const lines = [...LINES];
  const r = JSON.parse(lines[line - 1]!) as Rec;
  edit(r);
  lines[line - 1] = JSON.stringify(r);
  const path = join(box.dir, `${name.replace(/\W+/g, '-')}.jsonrpc.log`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('a record with a field of the wrong type', () => {
  it.each(CASES)('%s: every reader skips it with a warning naming the field', async (name, line, edit, problem) => {
    const log = damaged(name, line, edit);
    for (const cmd of COMMANDS) {
      const args = cmd[0] === 'diff' ? [...cmd, log, log] : [...cmd, log];
      const r = box.track(runTap(args, { env: { NO_COLOR: '1' } }));
      r.child.stdin.end();
      const { code } = await r.exited(20_000);
      const stderr = r.stderr();
      const what = `${cmd.join(' ')}: ${stderr}`;
      expect(code, what).toBe(cmd[0] === 'check' ? 1 : 0); // check: the fixture's findings fail it, as without the damage
      expect(stderr, what).not.toMatch(/internal error|TypeError|RangeError|cannot read|^\s+at /m);
      expect(stderr, what).toContain(`line ${line}: not an mcp-tap record (${problem}: `.replace(/^line (\d+): /, cmd[0] === 'tail' ? `:$1: ` : 'line $1: '));
      expect(r.stdout().length, what).toBeGreaterThan(0);
    }
  });

  it('a null where a name or seq may be is read as its absence: no warning, nothing skipped', async () => {
    const log = damaged('nulls', 9, (r) => {
      r['target'] = null;
      r['reqSeq'] = null;
      r['notes'] = null;
    });
    for (const cmd of COMMANDS) {
      const args = cmd[0] === 'diff' ? [...cmd, log, log] : [...cmd, log];
      const r = box.track(runTap(args, { env: { NO_COLOR: '1' } }));
      r.child.stdin.end();
      const { code } = await r.exited(20_000);
      expect(code, `${cmd.join(' ')}: ${r.stderr()}`).toBe(cmd[0] === 'check' ? 1 : 0);
      expect(r.stderr(), cmd.join(' ')).toBe('');
    }
  });
});
