/**
 * Whether the browser tests of the HTML report run: with Debian's chromium they run; without it they fail
 * under CI (a CI job must never pass by skipping them) and are skipped locally with a warning that says so.
 */
import { existsSync } from 'node:fs';

/** Where Debian's chromium package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** True when `CI` is set to anything but an empty string, `0` or `false`. */
export function underCi(env: NodeJS.ProcessEnv): boolean {
  const v = env['CI'];
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** run: the browser is there; fail: it is missing under CI; skip: missing locally (warned). */
export function browserTests(env: NodeJS.ProcessEnv = process.env, have: (path: string) => boolean = existsSync): 'run' | 'fail' | 'skip' {
  if (have(CHROMIUM)) return 'run';
  return underCi(env) ? 'fail' : 'skip';
}
