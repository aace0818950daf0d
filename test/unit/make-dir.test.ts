import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { makeDirSync } from '../../src/log/make-dir.js';
import { tempDir } from '../helpers/paths.js';

/** A temporary directory removed when the test ends. */
function scratch(): string {
  const t = tempDir('mcp-tap-mkdir-');
  onTestFinished(t.cleanup);
  return t.dir;
}

describe('makeDirSync', () => {
  it('creates missing parents with mode 0700 even under a permissive umask', () => {
    const root = scratch();
    const old = process.umask(0);
    try {
      makeDirSync(join(root, 'a', 'b', 'c'));
    } finally {
      process.umask(old);
    }
    for (const d of ['a', 'a/b', 'a/b/c']) expect(statSync(join(root, d)).mode & 0o777).toBe(0o700);
  });

  it('fails at once (no hang) where Node 20 recursive mkdir never returns, and on a file parent', () => {
    expect(() => makeDirSync('/proc/mcp-tap-nope/a')).toThrow(/ENOENT|EACCES|EPERM/);
    const root = scratch();
    writeFileSync(join(root, 'file'), 'x');
    expect(() => makeDirSync(join(root, 'file', 'sub'))).toThrow(/not a directory/);
  });
});
