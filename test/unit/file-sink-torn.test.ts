/**
 * A write that stops inside a record leaves a torn line; the next write must start with a line end, and
 * must still do so when that next write fails too (a disk that stays full). Otherwise the record written
 * after recovery is glued onto the torn line: lost, and never counted.
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
type WriteCb = (err: NodeJS.ErrnoException | null, n: number) => void;

afterEach(() => {
  fsc.write = realWrite;
  syncBuiltinESMExports();
});

const rec = (seq: number): string => `${JSON.stringify({ v: 1, seq, pad: 'x'.repeat(40) })}\n`;
const enospc = (): NodeJS.ErrnoException => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('file sink: torn lines and loss counts', () => {
  it('keeps the loss count a record carries when that record could not be encoded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-carry-'));
    try {
      const sink = new FileSink({ path: join(dir, 'jsonrpc.log'), checkIntervalMs: 0, maxQueueBytes: 10, warn: () => {} });
      expect(sink.open()).toBe(true);
      expect(sink.write(rec(1))).toBe(true); // the queue now holds more than its bound
      expect(sink.write(rec(2))).toBe(false); // dropped and counted
      expect(sink.takeLoss()).toEqual({ lost: 1, reason: 'queue-full' });
      // the gap record that reports it cannot be encoded (a value JSON cannot hold) …
      const bad = { v: 1, time: 1, session: 's', seq: 3, from: 'proxy', kind: 'event', event: 'gap', big: 1n } as never;
      expect(() => sink.writeRecord(bad, Buffer.from('{}'))).toThrow();
      // … so it is written another way, and is dropped too: the count it carried comes back with it
      expect(sink.write(rec(3))).toBe(false);
      expect(sink.takeLoss()).toEqual({ lost: 2, reason: 'queue-full' });
      await sink.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends a torn line even after a retry that wrote nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-torn-'));
    try {
      const path = join(dir, 'jsonrpc.log');
      const sink = new FileSink({ path, checkIntervalMs: 0, warn: () => {} });
      const retryNow = (): void => {
        (sink as unknown as { retryAt: number }).retryAt = 0;
      };
      expect(sink.open()).toBe(true);
      sink.write(rec(1));
      await waitFor(() => readFileSync(path, 'utf8').includes('"seq":1'), 5000, 'record 1 on disk');

      // a short write (20 bytes of record 2), then the disk is full
      let calls = 0;
      fsc.write = ((fd: number, buf: Buffer, off: number, len: number, pos: null, cb: WriteCb) => {
        calls++;
        if (calls === 1) {
          const n = fsc.writeSync(fd, buf, off, 20);
          process.nextTick(cb, null, n);
        } else process.nextTick(cb, enospc(), 0);
      }) as unknown as typeof fsc.write;
      syncBuiltinESMExports();
      sink.write(rec(2));
      await waitFor(() => calls >= 2 && sink.isBroken, 5000, 'the short write and the failure');

      // the retry: still full, nothing written (its leading line end included)
      retryNow();
      sink.write(rec(3));
      await waitFor(() => calls >= 3 && sink.isBroken, 5000, 'the failed retry');

      // space again
      fsc.write = realWrite;
      syncBuiltinESMExports();
      retryNow();
      sink.write(`${JSON.stringify({ v: 1, event: 'gap' })}\n`);
      sink.write(rec(4));
      await sink.close();

      const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
      const parsed = lines.filter((l) => {
        try {
          JSON.parse(l);
          return true;
        } catch {
          return false;
        }
      });
      // exactly one torn line (record 2's first 20 bytes); everything else whole
      expect(lines.length - parsed.length).toBe(1);
      expect(parsed.map((l) => (JSON.parse(l) as { seq?: number; event?: string }).seq ?? 'gap')).toEqual([1, 'gap', 4]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
