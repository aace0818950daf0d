/** The HTML report's browser tests never pass a CI job by skipping: .ci/run installs chromium or fails, and under CI a missing browser fails. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserTests, underCi } from '../helpers/browser.js';
import { ROOT } from '../helpers/paths.js';
import { toolsMode } from '../helpers/test-tools.js';

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

  it('the test tools: a failed install fails under CI, skips (with a warning) only locally', () => {
    expect(toolsMode('', { CI: 'true' })).toBe('run');
    expect(toolsMode('', {})).toBe('run');
    expect(toolsMode('npm install failed', { CI: '1' })).toBe('fail');
    expect(toolsMode('npm install failed', {})).toBe('skip');
  });

  it('.ci/run sets CI, installs chromium, Wine and the test tools, does not swallow a failed install, runs the Windows and host suites', () => {
    const script = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(script).toMatch(/^set -euo pipefail$/m);
    expect(script).toMatch(/^export CI=/m);
    expect(script).toMatch(/missing\+=\(chromium\)/);
    expect(script).toMatch(/missing\+=\(wine wine64\)/);
    expect(script).toMatch(/apt-get install -y[^\n]* "\$\{missing\[@\]\}"/);
    expect(script).not.toMatch(/\|\|\s*echo/);
    expect(script).toMatch(/command -v chromium[^\n]*\|\| \{[^}]*exit 1/);
    // the HAR test reads its output with jq: installed the same way, never skipped under CI
    expect(script).toMatch(/missing\+=\(jq\)/);
    expect(script).toMatch(/command -v jq[^\n]*\|\| \{[^}]*exit 1/);
    expect(script).toMatch(/command -v wine[^\n]*\|\| \{[^}]*exit 1/);
    expect(script.trim().split('\n').filter((l) => !l.startsWith('#')).slice(-8)).toEqual([
      'npm ci --no-audit --no-fund',
      'bash scripts/install-python-sdk.sh',
      'node scripts/install-test-tools.mjs',
      'npm test',
      'node scripts/install-wine.mjs',
      'npm run test:wine',
      'node scripts/install-hosts.mjs',
      'npm run test:hosts',
    ]);
  });
});

describe('what ships', () => {
  it('src/ holds no test-data generator (the synthetic session lives in test/helpers)', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(join(ROOT, 'src'), { recursive: true }).map(String);
    expect(files.filter((f) => /synthetic|fixture/i.test(f))).toEqual([]);
  });
});
