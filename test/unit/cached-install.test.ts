/**
 * The cached install step of the real hosts and the test tools (scripts/cached-install.mjs), on an empty
 * locked manifest (no network): installers that run at once install once, the stamp makes the next run a
 * no-op, and a changed manifest installs again.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/paths.js';

const tmp = tempDir('mcp-tap-cached-install-');
afterAll(() => tmp.cleanup());

const source = join(tmp.dir, 'manifest');
const prefix = join(tmp.dir, 'cache', 'pkgs');

/** Writes an empty manifest named `name` and its lock. */
function manifest(name: string): void {
  writeFileSync(join(tmp.dir, 'manifest', 'package.json'), JSON.stringify({ name, private: true }));
  writeFileSync(join(tmp.dir, 'manifest', 'package-lock.json'), JSON.stringify({ name, lockfileVersion: 3, requires: true, packages: { '': { name } } }));
}

/** One installer in its own process: what it said on stderr, and its result. */
async function installer(): Promise<{ said: string; result: string }> {
  const code = `const { cachedInstall } = await import(${JSON.stringify(join(ROOT, 'scripts', 'cached-install.mjs'))});
const r = cachedInstall(${JSON.stringify(source)}, ${JSON.stringify(prefix)}).install();
process.stdout.write(JSON.stringify(r));`;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code]);
  return { said: stderr, result: stdout };
}

describe('cached install', () => {
  it('installs once when installers run at once, not again while the manifest is the same, again when it changes', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(source, { recursive: true });
    manifest('first');
    const both = await Promise.all([installer(), installer()]);
    expect(both.map((b) => b.result)).toEqual(['null', 'null']);
    expect(both.filter((b) => b.said.includes('installing the packages')).length).toBe(1);
    const again = await installer();
    expect(again).toEqual({ said: '', result: 'null' });
    manifest('second');
    const changed = await installer();
    expect(changed.result).toBe('null');
    expect(changed.said).toContain('installing the packages');
  }, 60_000);
});
