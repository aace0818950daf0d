/**
 * A failed log write loses the record in flight and every record queued behind it: the gap record counts
 * all of them, not only the one in flight (house rule 3: no silent loss).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSink } from '../../src/log/file-sink.js';
import { waitFor } from '../helpers/wait.js';

const fsc = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
const realWrite = fsc.write;
const realWritev = fsc.writev;
type WriteCb = (err: NodeJS.ErrnoException | null, n: number) => void;

afterEach(() => {
  fsc.write = realWrite;
  fsc.writev = realWritev;
  syncBuiltinESMExports();
});

const rec = (seq: number): string => `${JSON.stringify({ v: 1, seq, pad: 'x'.repeat(40) })}\n`;
const eio = (): NodeJS.ErrnoException => Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });

describe('file sink: a failed write with records queued behind it', () => {
  for (const maxSize of [0, 4096, 100]) {
    it(`counts the record in flight and every queued one (${maxSize === 0 ? 'no rotation' : 'rotation'})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-qloss-'));
      try {
        const path = join(dir, 'jsonrpc.log');
        const sink = new FileSink({ path, checkIntervalMs: 0, maxSize, warn: () => {} });
        expect(sink.open()).toBe(true);
        // the first write hangs until the test fails it
        let pending: WriteCb | undefined;
        const hold = ((...args: unknown[]) => {
          pending = args[args.length - 1] as WriteCb;
        }) as unknown as typeof fsc.write;
        fsc.write = hold;
        fsc.writev = hold as unknown as typeof fsc.writev;
        syncBuiltinESMExports();
        sink.write(rec(1));
        await waitFor(() => pending !== undefined, 5000, 'the write in flight');
        for (let seq = 2; seq <= 6; seq++) expect(sink.write(rec(seq))).toBe(true); // queued behind it
        const cb = pending!;
        fsc.write = realWrite;
        fsc.writev = realWritev;
        syncBuiltinESMExports();
        cb(eio(), 0);
        expect(sink.isBroken).toBe(true);
        // the disk is back: the next record reopens the log, and the loss goes into the gap record
        (sink as unknown as { retryAt: number }).retryAt = 0;
        expect(sink.write(rec(7))).toBe(true);
        expect(sink.takeLoss()).toEqual({ lost: 6, reason: 'write-failed' });
        await sink.close();
        expect(readFileSync(path, 'utf8')).toBe(rec(7));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
