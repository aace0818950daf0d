/** Paths the end-to-end tests share: the repo root, the built CLI, fixture servers, server-everything. */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'bin', 'mcp-tap.js');
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'servers');
export const EVERYTHING = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** A fixture server's path by file name. */
export const fixture = (name: string): string => join(FIXTURES, name);

/** A fresh temporary directory and a function that removes it. */
export function tempDir(prefix = 'mcp-tap-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
