/**
 * Where exports go: a terminal gets control characters escaped, a closed pipe ends the output quietly,
 * and a file is written atomically with mode 0600 (it may hold secrets), replacing what was there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeForTerminal, writeFileAtomic, writeOutput, writeStream } from '../../src/transcript/write-output.js';

class Sink extends Writable {
  data = '';
  isTTY?: boolean;
  constructor(private readonly failWith?: string) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.failWith) {
      const err = Object.assign(new Error(this.failWith), { code: this.failWith });
      cb(err);
      return;
    }
    this.data += chunk.toString();
    cb();
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('stdout', () => {
  it('escapes control characters the same for a terminal, a pipe and a file, keeping line breaks', async () => {
    const tty = new Sink();
    tty.isTTY = true;
    const pipe = new Sink();
    for (const out of [tty, pipe]) await writeOutput(undefined, ['a\u001b[2Jb\n', 'c\u0007\u202ed\n'], out);
    expect(tty.data).toBe('a\\x1b[2Jb\nc\\x07\\u202ed\n');
    expect(pipe.data).toBe(tty.data);
    const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-out-'));
    dirs.push(dir);
    await writeOutput(join(dir, 'out.md'), ['a\u001b[2Jb\n', 'c\u0007\u202ed\n']);
    expect(readFileSync(join(dir, 'out.md'), 'utf8')).toBe(tty.data);
    expect(escapeForTerminal('x\ny\tz')).toBe('x\ny\\tz');
  });

  it('writes JSON and markup with unsafe characters as \\u escapes (the same JSON value)', async () => {
    const pipe = new Sink();
    const value = { s: 'a\u009b6n\u2028\u202eb\u007f' };
    await writeOutput(undefined, [`${JSON.stringify(value, null, 2)}\n`], pipe, 'data');
    expect(pipe.data).not.toMatch(/[\u007f-\u009f\u2028\u202e]/);
    expect(pipe.data).toContain('\\u009b');
    expect(JSON.parse(pipe.data)).toEqual(value);
  });

  it('writeStream itself writes bytes unchanged (escaping is writeOutput\'s)', async () => {
    const pipe = new Sink();
    await writeStream(pipe, ['a\u001b[2Jb\n']);
    expect(pipe.data).toBe('a\u001b[2Jb\n');
  });

  it('ends quietly when the reader is gone (EPIPE)', async () => {
    const gone = new Sink('EPIPE');
    await expect(writeStream(gone, ['a\n', 'b\n', 'c\n'])).resolves.toBeUndefined();
  });

  it('reports other write errors in one line', async () => {
    const full = new Sink('ENOSPC');
    await expect(writeStream(full, ['a\n'])).rejects.toThrow('cannot write the output (ENOSPC: no space left on device)');
  });
});

describe('files', () => {
  it('are written atomically with mode 0600, replacing an existing file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-out-'));
    dirs.push(dir);
    const path = join(dir, 'bug.md');
    writeFileSync(path, 'old');
    chmodSync(path, 0o644);
    await writeFileAtomic(path, ['new ', 'text']);
    expect(readFileSync(path, 'utf8')).toBe('new text');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['bug.md']);
  });

  it('leave nothing behind when the content fails midway', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-out-'));
    dirs.push(dir);
    const path = join(dir, 'bug.md');
    writeFileSync(path, 'old');
    async function* failing(): AsyncGenerator<string> {
      yield 'partial';
      throw new Error('reader failed');
    }
    await expect(writeFileAtomic(path, failing())).rejects.toThrow('reader failed');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['bug.md']);
  });

  it('say clearly when the target is a directory or cannot be created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-out-'));
    dirs.push(dir);
    await expect(writeFileAtomic(dir, ['x'])).rejects.toThrow(/it is a directory/);
    await expect(writeFileAtomic(join(dir, 'missing', 'x.md'), ['x'])).rejects.toThrow(/^cannot write .*x\.md \(ENOENT/);
  });
});
