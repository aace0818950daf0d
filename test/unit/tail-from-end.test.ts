/**
 * `tail -n` on a log larger than the block it reads backwards in (issue 27): the exact last lines, found
 * by reading only the end of the file. Every read of the readers is counted through a wrapped
 * node:fs/promises `open`, so "only the tail" is a number of bytes, not a timing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/paths.js';

const counted = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof real.open = async (...args) => {
    const fh = await real.open(...args);
    const read = fh.read.bind(fh) as (...a: unknown[]) => Promise<{ bytesRead: number; buffer: Buffer }>;
    (fh as unknown as { read: unknown }).read = async (...a: unknown[]) => {
      const r = await read(...a);
      counted.bytes += r.bytesRead;
      return r;
    };
    return fh;
  };
  return { ...real, open, default: { ...real, open } };
});

const { offsetOfLastLines } = await import('../../src/log/last-lines.js');
const { runTail } = await import('../../src/view/tail-run.js');

const tmp = tempDir('mcp-tap-tail-end-');
afterAll(() => tmp.cleanup());

const BLOCK = 64 * 1024;

describe('offsetOfLastLines across blocks', () => {
  it('finds the start of the last n lines when lines straddle and outgrow the read block', async () => {
    // lengths around the block size, so line ends fall on both sides of every block boundary
    const lengths = [10, BLOCK - 1, 1, BLOCK, 3, BLOCK + 1, 2 * BLOCK + 7, 0, 5, BLOCK - 2, 70_000, 1];
    const text = lengths.map((n, i) => String.fromCharCode(97 + (i % 26)).repeat(n)).join('\n');
    for (const ending of ['\n', '']) {
      const p = join(tmp.dir, `straddle${ending ? '-lf' : ''}.txt`);
      writeFileSync(p, text + ending);
      const starts = [0];
      for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
      for (let n = 1; n <= lengths.length + 1; n++) {
        const want = n >= starts.length ? 0 : starts[starts.length - n]!;
        expect(await offsetOfLastLines(p, n), `n=${n}${ending ? ' with final LF' : ''}`).toBe(want);
      }
    }
  });
});

describe('tail -n on a big log', () => {
  const RECORDS = 12_000;
  let path: string;
  let size: number;
  beforeAll(() => {
    const lines = [`{"v":1,"time":1796032583990,"session":"s-big","seq":1,"from":"proxy","kind":"event","event":"start","name":"big"}`];
    for (let seq = 2; seq <= RECORDS; seq++) {
      lines.push(
        `{"v":1,"time":${1796032583990 + seq},"session":"s-big","seq":${seq},"from":"client","kind":"request","id":${seq},"method":"tools/call","target":"t${seq}","bytes":300,"msg":{"jsonrpc":"2.0","id":${seq},"method":"tools/call","params":{"name":"t${seq}","arguments":{"pad":"${'p'.repeat(250)}"}}}}`,
      );
    }
    path = join(tmp.dir, 'big.jsonrpc.log');
    writeFileSync(path, `${lines.join('\n')}\n`);
    size = statSync(path).size;
  });

  async function tail(session: string, n: number): Promise<{ out: string; bytes: number }> {
    let out = '';
    counted.bytes = 0;
    await runTail({ file: path, follow: false, session, lines: n, full: false, json: true, filter: {}, color: 0 }, { write: (t) => void (out += t), warn: () => {} });
    return { out, bytes: counted.bytes };
  }

  it('returns exactly the last n records, as reading the whole file does', async () => {
    expect(size).toBeGreaterThan(40 * BLOCK);
    for (const n of [1, 7, 300]) {
      const fromEnd = await tail('last', n);
      const seqs = fromEnd.out.trimEnd().split('\n').map((l) => (JSON.parse(l) as { seq: number }).seq);
      expect(seqs).toEqual(Array.from({ length: n }, (_, i) => RECORDS - n + 1 + i));
      // an exact session id reads the whole file: the same lines
      const whole = await tail('s-big', n);
      expect(fromEnd.out).toBe(whole.out);
      expect(whole.bytes).toBeGreaterThanOrEqual(size);
    }
  });

  it('reads only the end of the file', async () => {
    const one = await tail('last', 1);
    expect(one.bytes).toBeGreaterThan(0);
    expect(one.bytes).toBeLessThanOrEqual(2 * BLOCK);
    const some = await tail('last', 300);
    // 300 records of ~440 bytes, looked for in a region of 2n + 16 lines (found backwards, then read forwards)
    expect(some.bytes).toBeLessThan(2 * 616 * 450 + 2 * BLOCK);
    expect(some.bytes).toBeLessThan(size / 5);
  });
});
