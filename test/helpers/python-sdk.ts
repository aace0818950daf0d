/**
 * The official Python MCP SDK the tests drive as a real client and server: a virtual environment that
 * `npm run setup:python` (scripts/install-python-sdk.sh, run by .ci/run) makes in .cache/python-sdk.
 * Without it the tests that need it fail under CI and are skipped locally with a warning.
 */
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';
import { join } from 'node:path';
import { underCi } from './browser.js';
import { ROOT } from './paths.js';

/** The environment's python. */
export const PYTHON = join(ROOT, '.cache', 'python-sdk', 'bin', 'python');
/** The Python fixtures: echo_server.py (a dual-era server), client.py (a dual-era client). */
export const PY_FIXTURES = join(ROOT, 'test', 'fixtures', 'python');

/** run: the SDK is there; fail: missing under CI; skip: missing locally (warned). */
export function pythonSdkTests(env: NodeJS.ProcessEnv = process.env): 'run' | 'fail' | 'skip' {
  if (existsSync(PYTHON)) return 'run';
  return underCi(env) ? 'fail' : 'skip';
}

/**
 * `describe` for the tests that need the Python SDK, or `describe.skip` without it; under CI a missing
 * SDK is a failing test (named after `what`), locally a warning naming `file`.
 */
export function describeWithPython(what: string, file: string): typeof describe | typeof describe.skip {
  const mode = pythonSdkTests();
  if (mode === 'fail') {
    describe(what, () => {
      it('needs the Python MCP SDK in .cache/python-sdk', () => {
        throw new Error(`${PYTHON} is missing: run npm run setup:python (.ci/run does)`);
      });
    });
  } else if (mode === 'skip') {
    console.warn(`${file}: the Python SDK tests are SKIPPED — run npm run setup:python; under CI this is a failure`);
  }
  return mode === 'run' ? describe : describe.skip;
}
