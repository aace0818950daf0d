/**
 * The reports that quote what a log holds — check (every format), audit, diff and stats — redact it by
 * default, as export does: a log with secrets planted in an error message, a request target, a tool's
 * description and name, a result with hidden Unicode and a credential used as a key gives none of them
 * back; `--no-redact` shows them (so the check can see them at all).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';

const LOGS = join(ROOT, 'test', 'fixtures', 'redaction');
const A = join(LOGS, 'planted-secrets-a.jsonl');
const B = join(LOGS, 'planted-secrets-b.jsonl');
/** Distinctive parts of the secrets planted in the two logs. */
const PLANTED = ['URLPASSSECRET', 'URITOKENSECRET', 'AKIAERRSECRET', 'ERRJWTSIG', 'DESCSECRET', 'DIFFDESCSECRET', 'DIFFTOOLNAME', 'TOOLNAMESECRET', 'INJECTSLACK', 'AKIAKEYNAMESECRET'];

let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir('mcp-tap-report-redaction-')));
afterAll(() => cleanup());

async function out(args: string[]): Promise<string> {
  const run = runTap(args, { env: { XDG_STATE_HOME: join(dir, 'state') } });
  run.child.stdin.end();
  const { code } = await run.exited(20_000);
  expect(code === 0 || code === 1, run.stderr()).toBe(true);
  return run.stdout().toString('utf8');
}
const found = (text: string) => PLANTED.filter((p) => text.includes(p));

describe.concurrent('reports redact what they quote', () => {
  for (const args of [
    ['check', A],
    ['check', '--format', 'json', A],
    ['check', '--format', 'sarif', A],
    ['check', '--format', 'junit', A],
    ['audit', A],
    ['audit', '--format', 'sarif', A],
    ['diff', A, B],
    ['diff', '--format', 'json', A, B],
    ['stats', A],
    ['stats', '--json', A],
  ]) {
    it(`${args.filter((a) => !a.startsWith('/')).join(' ')}: nothing planted by default, what it quotes with --no-redact`, async () => {
      expect(found(await out(args))).toEqual([]);
      expect(found(await out([...args, '--no-redact'])).length).toBeGreaterThan(0);
    });
  }
});
