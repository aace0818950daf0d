/**
 * The relay thread's side of the analysis with real worker threads: the built analysis worker logs what
 * the relay hands it, in order, at the relay's times; a worker that cannot start leaves the analysis to
 * the relay's thread (the log is the same); a worker that fails, or stops reading, never stops the relay:
 * the protocol streams are paced only while the analysis makes progress, stderr says what happened, and
 * what the relay forwards afterwards is dropped and counted instead of piling up.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { WorkerObserver } from '../../src/proxy/worker-observer.js';
import { ANALYSIS_WORKER } from '../../src/package-paths.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

const box = tempDir('mcp-tap-worker-observer-');
afterAll(() => box.cleanup());
const WORKERS = join(ROOT, 'test', 'fixtures', 'workers');

function observer(name: string, workerPath: string, extra: { ringBytes?: number; paceBytes?: number } = {}) {
  const logPath = join(box.dir, `${name}.log`);
  const warnings: string[] = [];
  const pressure: boolean[] = [];
  const o = new WorkerObserver(
    { sessionId: name, maxLogBytes: 1 << 20, log: { logPath, maxLogSize: 0, maxLogFiles: 1, quiet: true }, taps: { name }, secrets: [] },
    { workerPath, warn: (m) => warnings.push(m), stderr: new PassThrough(), ...extra },
  );
  o.pressure = (on) => pressure.push(on);
  const records = () =>
    readFileSync(logPath, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { o, warnings, pressure, records };
}

const request = (id: number) => Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"p":"${'x'.repeat(100)}"}}}\n`);
const answer = (id: number) => Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":{"content":[]}}\n`);

describe('analysis worker', () => {
  it('logs every chunk and event the relay hands it, in relay order, at the relay times', async () => {
    const t = observer('order', ANALYSIS_WORKER);
    t.o.event('start', { name: 'order' });
    for (let i = 1; i <= 300; i++) {
      t.o.fromClient(request(i));
      if (i === 150) t.o.event('signal', { signal: 'SIGTERM' });
      t.o.fromServer(answer(i));
    }
    t.o.fromStderr(Buffer.from('a line on stderr\n'));
    t.o.endOf('client');
    const before = Date.now();
    await t.o.finish({ exitCode: 0 });
    const rs = t.records();
    expect(rs.map((r) => r['seq'])).toEqual(rs.map((_, i) => i + 1));
    expect(rs.filter((r) => r['kind'] === 'request')).toHaveLength(300);
    expect(rs.filter((r) => r['kind'] === 'response')).toHaveLength(300);
    const signalAt = rs.findIndex((r) => r['event'] === 'signal');
    expect(rs[signalAt - 1]).toMatchObject({ kind: 'request', id: 150 });
    expect(rs[signalAt + 1]).toMatchObject({ kind: 'response', id: 150 });
    expect(rs.find((r) => r['kind'] === 'stderr')).toBeDefined();
    expect(rs[rs.length - 1]).toMatchObject({ event: 'end', exitCode: 0 });
    // times are the relay's: taken before finish() was called, not when the worker wrote
    expect(rs.filter((r) => r['kind'] !== 'event' || r['event'] !== 'end').every((r) => (r['time'] as number) <= before + 1)).toBe(true);
    expect(t.warnings, t.warnings.join('\n')).toEqual([]);
    expect(t.pressure).toEqual([]);
  });

  it('a worker that does not start: the same analysis runs on the relay thread, and stderr says so', async () => {
    const t = observer('nostart', join(WORKERS, 'no-such-worker.mjs'));
    t.o.event('start', {});
    for (let i = 1; i <= 20; i++) {
      t.o.fromClient(request(i));
      t.o.fromServer(answer(i));
    }
    await t.o.finish({});
    expect(t.warnings.some((w) => /did not start.*analysing on the relay's thread/.test(w))).toBe(true);
    const rs = t.records();
    expect(rs.filter((r) => r['kind'] === 'response')).toHaveLength(20);
    expect(rs[rs.length - 1]).toMatchObject({ event: 'end' });
  });

  it('a worker that fails: the relay goes on, stderr says so once, nothing piles up, finish returns', async () => {
    const t = observer('fails', join(WORKERS, 'fails.mjs'), { ringBytes: 4096 });
    await waitFor(() => t.warnings.length > 0, 10_000, 'the failure to be reported');
    expect(t.warnings).toEqual([expect.stringMatching(/the analysis failed \(simulated failure of the analysis\); the relay goes on without a log/)]);
    for (let i = 0; i < 1000; i++) t.o.fromClient(request(i));
    expect(t.o.waiting()).toBe(0);
    expect(t.pressure).toEqual([]);
    const t0 = performance.now();
    expect(await t.o.finish({})).toBeNull();
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(t.warnings).toHaveLength(1);
  });

  it('a worker that stops reading: the protocol streams are paced, then let go after a second with a warning; then chunks past the bound are dropped and counted; finish does not wait for ever', async () => {
    const t = observer('stuck', join(WORKERS, 'never-reads.mjs'), { ringBytes: 4096, paceBytes: 2048 });
    for (let i = 0; i < 40; i++) t.o.fromClient(request(i));
    expect(t.pressure).toEqual([true]);
    expect(t.o.dropped().bytes).toBe(0);
    await waitFor(() => t.pressure.length === 2, 10_000, 'the sources to be let go');
    expect(t.pressure).toEqual([true, false]);
    expect(t.warnings).toEqual([expect.stringMatching(/the analysis has read nothing for 1000 ms; the relay goes on without waiting for it/)]);
    for (let i = 100; i < 200; i++) t.o.fromClient(request(i));
    const { bytes, lines } = t.o.dropped();
    expect(lines).toBe(100);
    expect(bytes).toBe(Array.from({ length: 100 }, (_, i) => request(100 + i).length).reduce((a, b) => a + b));
    expect(t.warnings[1]).toMatch(/the analysis is [\d.]+ MiB behind the relay; what it cannot take is dropped and counted in the log/);
    const t0 = performance.now();
    expect(await t.o.finish({}, 100)).toBeNull();
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(t.warnings[2]).toMatch(/did not finish writing within 100 ms/);
  });

  it('stderr is never paced: a flood of it past the bound is dropped and counted while the analysis reads on', async () => {
    const t = observer('stderr-flood', join(WORKERS, 'never-reads.mjs'), { ringBytes: 4096, paceBytes: 2048 });
    const line = Buffer.from(`${'e'.repeat(99)}\n`);
    for (let i = 0; i < 200; i++) t.o.fromStderr(line);
    expect(t.pressure).toEqual([]);
    const { bytes, lines } = t.o.dropped();
    expect(lines).toBeGreaterThan(100);
    expect(bytes).toBe(lines * 100);
    expect(t.warnings).toEqual([expect.stringMatching(/MiB behind the relay; what it cannot take is dropped and counted/)]);
    expect(await t.o.finish({}, 100)).toBeNull();
  });
});
