/**
 * Tests that run mcp-tap as another user (nobody) need a copy of the CLI that user can reach: the
 * checkout may live under a directory only root can enter (a 0700 mktemp dir, /root). This copies what
 * the built CLI needs at run time — bin/, dist/, package.json, the runtime packages the readers load —
 * and the fixture servers into a world-readable temporary directory.
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, ROOT } from './paths.js';

/** A world-readable install of the built CLI (~40 MB): its root, CLI path, fixtures directory, and how to remove it. */
export function installForOtherUser(): { root: string; cli: string; fixtures: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'mcp-tap-other-user-'));
  chmodSync(root, 0o755);
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(root, part), { recursive: true });
  mkdirSync(join(root, 'node_modules'));
  for (const pkg of ['chalk', 'commander', 'gpt-tokenizer']) cpSync(join(ROOT, 'node_modules', pkg), join(root, 'node_modules', pkg), { recursive: true });
  cpSync(FIXTURES, join(root, 'fixtures'), { recursive: true });
  return { root, cli: join(root, 'bin', 'mcp-tap.js'), fixtures: join(root, 'fixtures'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
