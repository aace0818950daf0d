/**
 * followFile against a writer that rotates while the follower looks (issue 8, item 6): a child process
 * writes numbered lines and rotates every 16 lines the way the log sink does (path.N → path.N+1, highest
 * first, then path → path.1, then a new path), as fast as it can, keeping every file. The follower must
 * hand over every line once, in order: a rotation between two of its look-ups must not make it skip a
 * file (or go back to an older one). Before files were told apart by inode this lost whole files in
 * nearly every run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followFile } from '../../src/log/follow.js';

const WRITER = `
const fs = require('node:fs');
const [p, total] = [process.argv[1], Number(process.argv[2])];
let fd = fs.openSync(p, 'a');
let inFile = 0;
let files = 0;
(async () => {
  for (let i = 1; i <= total; i++) {
    if (inFile === 16) {
      fs.closeSync(fd);
      for (let k = files; k >= 1; k--) fs.renameSync(p + '.' + k, p + '.' + (k + 1));
      fs.renameSync(p, p + '.1');
      files++;
      fd = fs.openSync(p, 'a');
      inFile = 0;
    }
    fs.writeSync(fd, i + '\\n');
    inFile++;
    if (i % 4 === 0) await new Promise((r) => setImmediate(r));
  }
  fs.closeSync(fd);
})();
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-tap-follow-rot-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('followFile across rotations that happen while it looks', () => {
  it('every line once, in order, while a writer rotates as fast as it can', async () => {
    const total = 4000;
    const p = join(dir, 'x.log');
    writeFileSync(p, '');
    const seen: number[] = [];
    const ac = new AbortController();
    const done = followFile(
      { path: p, pollMs: 2, signal: ac.signal, watch: false, maxRotated: 10_000 },
      { line: (t) => seen.push(Number(t)) },
    );
    const writer = spawn(process.execPath, ['-e', WRITER, p, String(total)], { stdio: ['ignore', 'ignore', 'inherit'] });
    const code = await new Promise<number | null>((resolve) => writer.on('exit', resolve));
    expect(code).toBe(0);
    const deadline = Date.now() + 10_000;
    while (seen.at(-1) !== total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    await done;
    const firstWrong = seen.findIndex((x, i) => x !== i + 1);
    expect(firstWrong, `line ${firstWrong + 1} is ${seen[firstWrong]}`).toBe(-1);
    expect(seen).toHaveLength(total);
  }, 30_000);
});
