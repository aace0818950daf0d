/**
 * The generator on a synthetic session of 100,000 messages: how long it takes and how big the page is.
 * Only generous sanity bounds are asserted (timing targets belong in bench/); the numbers are printed
 * and quoted in docs/report.md.
 */
import { describe, expect, it } from 'vitest';
import { reportChunks } from '../../src/report/page.js';
import { syntheticSession } from '../helpers/synthetic-session.js';

describe('report of a 100,000-message session', () => {
  it('is generated in seconds and stays a file a browser can open', () => {
    const records = syntheticSession(100_000);
    const messages = records.filter((r) => r.kind !== 'event').length;
    expect(messages).toBe(100_000);
    const logBytes = records.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)) + 1, 0);
    const t = performance.now();
    let bytes = 0;
    let chunks = 0;
    let largest = 0;
    for (const c of reportChunks(records, { redacted: true, exporterVersion: 'test' })) {
      const n = Buffer.byteLength(c);
      bytes += n;
      chunks++;
      largest = Math.max(largest, n);
    }
    const ms = performance.now() - t;
    const mib = (n: number) => (n / 1048576).toFixed(1);
    console.log(
      `report of ${messages} messages (log ${mib(logBytes)} MiB): ${ms.toFixed(0)} ms, ${mib(bytes)} MiB in ${chunks} chunks (largest ${(largest / 1024).toFixed(0)} KiB)`,
    );
    expect(ms).toBeLessThan(30_000);
    // the page is about the size of the log, never a multiple of it
    expect(bytes).toBeLessThan(logBytes * 1.5);
    // written piece by piece: no chunk holds more than a slice of the session
    expect(largest).toBeLessThan(bytes / 10);
  });
});
