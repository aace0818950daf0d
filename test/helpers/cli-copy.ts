/**
 * A copy of the built CLI that any user can run: tests that start mcp-tap as another user (root running
 * it as nobody) cannot use the checkout when it sits in a directory only its owner may enter, as a fresh
 * `mktemp -d` clone does. Holds what `ui` loads at run time: bin/, dist/, package.json and the package
 * the bundle leaves out that it needs (scripts/build.mjs keeps gpt-tokenizer external).
 */
import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './paths.js';

/** Copies the CLI into a directory everyone may read; its `bin/mcp-tap.js`, and a function that removes it. */
export function cliCopyForAnyone(): { cli: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-cli-'));
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  cpSync(join(ROOT, 'node_modules', 'gpt-tokenizer'), join(dir, 'node_modules', 'gpt-tokenizer'), { recursive: true, dereference: true });
  readableByAll(dir);
  return { cli: join(dir, 'bin', 'mcp-tap.js'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** a+rX, recursively (mkdtemp makes the top 0700). */
function readableByAll(dir: string): void {
  chmodSync(dir, 0o755);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) readableByAll(p);
    else chmodSync(p, 0o644);
  }
}
