/**
 * Byte exactness (issue 2 §2): whatever the host writes reaches the server unchanged, and whatever the
 * server writes reaches the host unchanged — invalid UTF-8, CRLF, NUL, a last line without LF, lines of
 * 20 MB and more, in any chunking. The fixture `cat.mjs` echoes its stdin and reports the sha256 of what it
 * received, so one run checks both directions independently.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapSandbox } from '../helpers/run-tap.js';
import { fixture } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';
import { waitFor } from '../helpers/wait.js';
import { split } from '../helpers/split.js';

const box = tapSandbox();

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Sends the chunks through `mcp-tap -- node cat.mjs`; returns what came back and what the server saw. */
async function relay(chunks: Buffer[], name: string): Promise<{ out: Buffer; serverSha: string; serverBytes: number; log: string; code: number | null }> {
  const shaFile = join(box.dir, `${name}.sha`);
  const log = join(box.dir, `${name}.log`);
  const r = runTap(['--log', log, '--', process.execPath, fixture('cat.mjs')], { env: { TAP_SHA_FILE: shaFile } });
  box.track(r);
  for (const c of chunks) await r.write(c);
  r.child.stdin.end();
  const { code } = await r.exited(20_000);
  const [serverSha, bytes] = readFileSync(shaFile, 'utf8').trim().split(' ');
  return { out: r.stdout(), serverSha: serverSha!, serverBytes: Number(bytes), log, code };
}


/** Number of lines the log should hold for a stream: one per LF, plus a torn last line. */
const lineCount = (b: Buffer): number => {
  let n = 0;
  for (const x of b) if (x === 0x0a) n++;
  return n + (b.length > 0 && b[b.length - 1] !== 0x0a ? 1 : 0);
};

// Fragments that break naive relays: CRLF, NUL, invalid and truncated UTF-8, a BOM, U+2028, lone LF/CR.
const nasty = fc.constantFrom(
  Buffer.from('\r\n'),
  Buffer.from([0]),
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xc3]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from('\u2028é漢🙂', 'utf8'),
  Buffer.from('\n'),
  Buffer.from('\r'),
  Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'),
);
const fragment = fc.oneof(
  { weight: 3, arbitrary: nasty },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 100_000 }).map((n) => Buffer.alloc(n, 0x61)) },
);
const stream = fc.array(fragment, { maxLength: 40 }).map((parts) => Buffer.concat(parts));

describe('byte exactness', () => {
  it('random byte streams in random chunk sizes pass unchanged both ways, one log record per line', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(stream, fc.array(fc.nat(), { maxLength: 30 }), async (input, cuts) => {
        const name = `p${run++}`;
        const res = await relay(split(input, cuts), name);
        expect(res.code).toBe(0);
        expect(res.serverBytes).toBe(input.length);
        expect(res.serverSha).toBe(sha(input));
        expect(res.out.equals(input)).toBe(true);
        const recs = readRecords(res.log);
        const lines = lineCount(input);
        expect(recs.filter((x) => x.from === 'client' && x.kind !== 'event')).toHaveLength(lines);
        expect(recs.filter((x) => x.from === 'server' && x.kind !== 'event' && x.kind !== 'stderr')).toHaveLength(lines);
      }),
      { numRuns: 20 },
    );
  }, 180_000); // 20 runs of two process starts each: seconds alone, much longer on a loaded CI machine

  it('forwards bytes as they arrive: half a line reaches the other side before its LF is written', async () => {
    const shaFile = join(box.dir, 'half.sha');
    const r = runTap(['--log', join(box.dir, 'half.log'), '--', process.execPath, fixture('cat.mjs')], { env: { TAP_SHA_FILE: shaFile } });
    box.track(r);
    await r.write('{"jsonrpc":"2.0",');
    await waitFor(() => r.stdout().toString() === '{"jsonrpc":"2.0",', 5000, 'the first half of the line to come back');
    await r.write('"method":"ping"}\n');
    await waitFor(() => r.stdout().toString() === '{"jsonrpc":"2.0","method":"ping"}\n', 5000, 'the whole line');
    r.child.stdin.end();
    expect((await r.exited()).code).toBe(0);
  });

  it('a 21 MB JSON line and a 25 MB line without any LF, written in random chunks, arrive whole both ways', { timeout: 120_000 }, async () => {
    // a valid JSON-RPC line of 21 MB ending in CRLF, and 25 MB of random bytes with no LF at all
    const big = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"x","arguments":{"blob":"'),
      Buffer.from(randomBytes(15.75 * 1024 * 1024).toString('base64')),
      Buffer.from('","note":"é漢🙂"}}}\r\n', 'utf8'),
    ]);
    const noLf = randomBytes(25 * 1024 * 1024);
    for (let i = 0; i < noLf.length; i++) if (noLf[i] === 0x0a) noLf[i] = 0x0b;
    expect(big.length).toBeGreaterThan(21 * 1024 * 1024);

    for (const [name, input] of [['json', big], ['nolf', noLf]] as const) {
      // random chunk sizes between 1 byte and 1 MB
      const cuts: number[] = [];
      for (let at = 0; at < input.length; ) {
        at += 1 + Math.floor(Math.random() * Math.random() * 1024 * 1024);
        cuts.push(at);
      }
      const res = await relay(split(input, cuts), name);
      expect(res.code).toBe(0);
      expect(res.serverBytes).toBe(input.length);
      expect(res.serverSha).toBe(sha(input));
      expect(res.out.length).toBe(input.length);
      expect(sha(res.out)).toBe(sha(input));
      const recs = readRecords(res.log);
      const client = recs.filter((x) => x.from === 'client' && x.kind !== 'event');
      const server = recs.filter((x) => x.from === 'server' && x.kind !== 'event' && x.kind !== 'stderr');
      const expectedBytes = input[input.length - 1] === 0x0a ? input.length - 1 : input.length;
      expect(client.map((x) => x.bytes)).toEqual([expectedBytes]);
      expect(server.map((x) => x.bytes)).toEqual([expectedBytes]);
      // the log keeps a bounded copy, not the whole line
      expect(readFileSync(res.log).length).toBeLessThan(8 * 1024 * 1024);
    }
  });
});
