/** The HTML report's browser tests never pass a CI job by skipping: .ci/run installs chromium or fails, and under CI a missing browser fails. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserTests, underCi } from '../helpers/browser.js';
import { ROOT } from '../helpers/paths.js';

describe('browser tests and CI', () => {
  it('fail under CI when chromium is missing, run when it is there, skip (with a warning) only locally', () => {
    const missing = () => false;
    expect(browserTests({ CI: 'true' }, missing)).toBe('fail');
    expect(browserTests({ CI: '1' }, missing)).toBe('fail');
    expect(browserTests({}, missing)).toBe('skip');
    expect(browserTests({ CI: 'false' }, missing)).toBe('skip');
    expect(browserTests({ CI: 'true' }, () => true)).toBe('run');
    expect(underCi({ CI: '' })).toBe(false);
  });

  it('.ci/run sets CI, installs chromium and does not swallow a failed install', () => {
    const script = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(script).toMatch(/^set -euo pipefail$/m);
    expect(script).toMatch(/^export CI=/m);
    expect(script).toMatch(/apt-get install -y[^\n]* chromium/);
    expect(script).not.toMatch(/\|\|\s*echo/);
    expect(script).toMatch(/command -v chromium[^\n]*\|\| \{[^}]*exit 1/);
    // the HAR test reads its output with jq: installed the same way, never skipped under CI
    expect(script).toMatch(/apt-get install -y[^\n]* jq/);
    expect(script).toMatch(/command -v jq[^\n]*\|\| \{[^}]*exit 1/);
  });
});

describe('what ships', () => {
  it('src/ holds no test-data generator (the synthetic session lives in test/helpers)', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(join(ROOT, 'src'), { recursive: true }).map(String);
    expect(files.filter((f) => /synthetic|fixture/i.test(f))).toEqual([]);
  });
});
