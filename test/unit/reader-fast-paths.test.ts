/**
 * The readers' fast paths give what the slow ones give: the end of a log found backwards, a record read
 * as its envelope only when `msg` ends it, and the progress line only on a terminal.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetOfLastLines } from '../../src/log/last-lines.js';
import { readRecords } from '../../src/log/read-log.js';
import { progressFor } from '../../src/view/progress-line.js';
import { runTail, type TailRunOptions } from '../../src/view/tail-run.js';
import { tempDir } from '../helpers/paths.js';

let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir('mcp-tap-fast-')));
afterAll(() => cleanup?.());

const rec = (session: string, seq: number, extra = ''): string =>
  `{"v":1,"time":${1796032583990 + seq},"session":"${session}","seq":${seq},"from":"client","kind":"request","id":${seq},"method":"tools/call","target":"t${seq}","bytes":10${extra},"msg":{"jsonrpc":"2.0","id":${seq},"method":"tools/call","params":{"name":"t${seq}","arguments":{"s":"a\\"b}"}}}}`;
const start = (session: string): string => `{"v":1,"time":1796032583990,"session":"${session}","seq":1,"from":"proxy","kind":"event","event":"start","name":"x"}`;

describe('offsetOfLastLines', () => {
  it('finds where the last n lines start, with or without a final newline', async () => {
    const p = join(dir, 'lines.txt');
    writeFileSync(p, 'a\nbb\nccc\n');
    expect(await offsetOfLastLines(p, 1)).toBe(5);
    expect(await offsetOfLastLines(p, 2)).toBe(2);
    expect(await offsetOfLastLines(p, 3)).toBe(0);
    expect(await offsetOfLastLines(p, 9)).toBe(0);
    appendFileSync(p, 'dd');
    expect(await offsetOfLastLines(p, 1)).toBe(9);
  });
});

describe('tail -n from the end', () => {
  it('shows what reading the whole file shows, for the last session of several', async () => {
    const p = join(dir, 'multi.jsonrpc.log');
    const lines: string[] = [];
    for (const s of ['s-aaaa', 's-bbbb', 's-cccc']) {
      lines.push(start(s));
      for (let i = 2; i <= 4000; i++) lines.push(rec(s, i));
    }
    writeFileSync(p, `${lines.join('\n')}\n`);
    const run = async (session: string, n: number): Promise<string> => {
      let out = '';
      const opts: TailRunOptions = { file: p, follow: false, session, lines: n, full: false, json: false, filter: {}, color: 0 };
      await runTail(opts, { write: (t) => void (out += t), warn: () => {} });
      return out;
    };
    // an exact id reads the whole file; 'last' reads from the end
    const fromEnd = await run('last', 7);
    expect(fromEnd).toBe(await run('s-cccc', 7));
    expect(fromEnd.trimEnd().split('\n')).toHaveLength(7);
    expect(fromEnd).toContain('#4000');
    // more than the last session holds (the region still starts inside the file): all of it, from its start separator
    const whole = await run('last', 5000);
    expect(whole).toBe(await run('s-cccc', 5000));
    expect(whole.trimEnd().split('\n')).toHaveLength(4000);
    expect(whole).toMatch(/^─+ .*s-cccc/);
  });
});

describe('envelope-only reading', () => {
  it('leaves msg out only when msg is the last member; other members after it are kept', async () => {
    const p = join(dir, 'order.jsonrpc.log');
    const after = `{"v":1,"time":1,"session":"s","seq":3,"from":"client","kind":"request","id":3,"msg":{"jsonrpc":"2.0","id":3,"method":"m"},"notes":[{"code":"c","text":"t"}]}`;
    writeFileSync(p, `${start('s')}\n${rec('s', 2)}\n${after}\n`);
    const got = [];
    for await (const item of readRecords(p, { needsBody: () => false })) if ('record' in item) got.push(item.record);
    expect(got[1]).not.toHaveProperty('msg');
    expect(got[1]).toMatchObject({ seq: 2, target: 't2', bytes: 10 });
    expect(got[2]).toMatchObject({ seq: 3, notes: [{ code: 'c', text: 't' }], msg: { id: 3 } });
    const whole = [];
    for await (const item of readRecords(p, { needsBody: (h) => h.seq === 2 })) if ('record' in item) whole.push(item.record);
    expect(whole[1]).toMatchObject({ msg: { params: { arguments: { s: 'a"b}' } } } });
  });
});

describe('progress line', () => {
  it('appears on a terminal after a second, is erased at the end, and never elsewhere', () => {
    let now = 0;
    let written = '';
    const tty = progressFor(join(dir, 'order.jsonrpc.log'), { stream: { isTTY: true, write: (t: string) => (written += t) }, now: () => now });
    tty.update(10, 1);
    expect(written).toBe('');
    now = 1500;
    tty.update(20, 2);
    expect(written).toMatch(/^\r\x1b\[Kmcp-tap: reading 20 B of \d+ B \(\d+%\), 2 records, 1\.5 s$/);
    tty.done();
    expect(written.endsWith('\r\x1b[K')).toBe(true);
    let piped = '';
    const pipe = progressFor(join(dir, 'order.jsonrpc.log'), { stream: { isTTY: false, write: (t: string) => (piped += t) }, now: () => now });
    now = 5000;
    pipe.update(20, 2);
    pipe.done();
    expect(piped).toBe('');
  });
});
