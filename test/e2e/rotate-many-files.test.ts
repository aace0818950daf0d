/**
 * `--max-log-files` accepts any whole number, and rotation used to walk every number below it — an
 * existsSync per number, on the relay's thread: with 1000000000 the first rotation blocked the relay and
 * mcp-tap for the better part of an hour (a signal could not even be handled). Rotation now moves only
 * the files there, so a huge limit costs what a small one does.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapLines, tapSandbox } from '../helpers/run-tap.js';
import { fixture } from '../helpers/paths.js';

const box = tapSandbox('mcp-tap-rotate-many-');

describe('--max-log-files with a huge limit', () => {
  it('rotates promptly, relays every byte and keeps every rotated file', async () => {
    const log = join(box.dir, 'many.jsonrpc.log');
    const r = box.track(runTap(['--log', log, '--max-log-size', '4096', '--max-log-files', '1000000000', '--', process.execPath, fixture('cat.mjs')]));
    const lines: string[] = [];
    for (let i = 0; i < 20; i++) lines.push(`{"jsonrpc":"2.0","id":${i},"method":"ping","params":{"pad":"${'x'.repeat(2000)}"}}\n`);
    for (const line of lines) await r.write(line);
    r.child.stdin.end();
    const { code } = await r.exited(15_000);
    expect(code).toBe(0);
    expect(r.stdout().toString('utf8')).toBe(lines.join(''));
    expect(tapLines(r.stderr())).toEqual([`mcp-tap: logging to ${log}`]);
    const rotated = readdirSync(box.dir).filter((n) => /^many\.jsonrpc\.log\.\d+$/.test(n));
    // 40 records of ~2 KB (each line both ways) and the events, 4 KB a file: a file per two records or so
    expect(rotated.length).toBeGreaterThan(10);
    for (let i = 1; i <= rotated.length; i++) expect(existsSync(`${log}.${i}`)).toBe(true);
  });
});
