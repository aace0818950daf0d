/**
 * A log passed through a Windows tool: with a UTF-8 byte order mark (Notepad, PowerShell's
 * `Out-File -Encoding utf8`) its first record — the session's start — was skipped as "not an mcp-tap
 * record (﻿{"v":1,…)", the mark invisible in the warning; in UTF-16 (PowerShell 5's `>`) it was "not an
 * mcp-tap log" with a first line of NULs and replacement characters. Now the UTF-8 mark is skipped and
 * UTF-16 is named, with how to convert it.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapSandbox } from '../helpers/run-tap.js';
import { ROOT } from '../helpers/paths.js';

const box = tapSandbox('mcp-tap-encoding-');
const LOG = join(ROOT, 'test', 'fixtures', 'logs', 'stats.jsonl');
const READERS = [['tail'], ['tail', '--json'], ['export'], ['export', '--format', 'jsonl'], ['stats'], ['check'], ['baseline', 'save']];

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = box.track(runTap(args, { env: { NO_COLOR: '1' } }));
  r.child.stdin.end();
  const { code } = await r.exited(15_000);
  return { code, stdout: r.stdout().toString('utf8'), stderr: r.stderr() };
}

describe('a log with a byte order mark', () => {
  it('UTF-8 mark: every reader shows what it shows without one, no warning', async () => {
    const text = readFileSync(LOG);
    const marked = join(box.dir, 'marked.jsonrpc.log');
    const plain = join(box.dir, 'plain.jsonrpc.log');
    writeFileSync(marked, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]));
    writeFileSync(plain, text);
    for (const cmd of READERS) {
      const a = await run([...cmd, marked]);
      const b = await run([...cmd, plain]);
      expect(a.stderr, cmd.join(' ')).toBe(b.stderr);
      expect(a.code, cmd.join(' ')).toBe(b.code);
      expect(a.stdout.replaceAll('marked', 'plain'), cmd.join(' ')).toBe(b.stdout);
    }
  });

  it('UTF-16 (either byte order): one line naming the encoding, exit 2', async () => {
    const text = readFileSync(LOG, 'utf8');
    const le = join(box.dir, 'le.jsonrpc.log');
    writeFileSync(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const be = join(box.dir, 'be.jsonrpc.log');
    writeFileSync(be, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    for (const file of [le, be]) {
      for (const cmd of READERS) {
        const res = await run([...cmd, file]);
        expect(res.code, cmd.join(' ')).toBe(2);
        expect(res.stderr).toBe(`mcp-tap: ${file} is UTF-16 text, not an mcp-tap log (logs are UTF-8; convert it, e.g. iconv -f UTF-16 -t UTF-8)\n`);
      }
    }
  });
});
