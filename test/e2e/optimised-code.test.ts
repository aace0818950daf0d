/**
 * A long healthy session keeps the record path's optimised code: paths that first run thousands of
 * messages in — the answered ring's first eviction (at 10,000 answers), an arena holding more records
 * than its columns' first size (small messages), an arena filled before its write (a burst of more than
 * 1 MiB between two writes) — used to deoptimise the code that had been compiled for the session's
 * first messages, so V8 compiled it again in the middle of the traffic. The proxy runs
 * with V8's deoptimisation log (its traces go to a file: stdout stays the server's); every deoptimisation
 * is mapped through the bundle's source maps to the source file it happened in.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI, ROOT, tempDir } from '../helpers/paths.js';

const ECHO = join(ROOT, 'bench', 'echo-server.mjs');
/** Source files whose late paths must not deoptimise their optimised callers. */
const WATCHED = ['src/session/answered-ring.ts', 'src/session/int-slots.ts', 'src/log/record-queue.ts', 'src/session/session.ts'];

/** Drives the proxy: `calls` echo calls of `bytes`, `depth` in flight, checking each answer's id. */
function client(child: ReturnType<typeof spawn>) {
  const waiting = new Map<number, () => void>();
  let carry = '';
  let nextId = 0;
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (s: string) => {
    const lines = (carry + s).split('\n');
    carry = lines.pop()!;
    for (const line of lines) {
      const m = JSON.parse(line) as { id: number };
      const done = waiting.get(m.id);
      if (done === undefined) throw new Error(`an answer nobody asked for: ${line.slice(0, 120)}`);
      waiting.delete(m.id);
      done();
    }
  });
  const call = (method: string, params: unknown): Promise<void> =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin!.write(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}\n`);
    });
  const phase = async (calls: number, bytes: number, depth: number): Promise<void> => {
    const payload = 'x'.repeat(bytes);
    let started = 0;
    const lane = async (): Promise<void> => {
      while (started < calls) {
        started++;
        await call('tools/call', { name: 'echo', arguments: { payload } });
      }
    };
    await Promise.all(Array.from({ length: depth }, lane));
  };
  return { call, phase };
}

/** `<file:///…/dist/x.js:line:col>` → the source file it was bundled from (relative to the checkout). */
function sourceOf(position: string, maps: Map<string, SourceMap>): string {
  const m = /^<(file:\/\/[^>]+\.js):(\d+):(\d+)>/.exec(position);
  if (m === null) return position;
  const file = fileURLToPath(m[1]!);
  let map = maps.get(file);
  if (map === undefined) {
    map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    maps.set(file, map);
  }
  const entry = map.findEntry(Number(m[2]) - 1, Number(m[3]) - 1) as { originalSource?: string; originalLine?: number };
  if (entry.originalSource === undefined) return position;
  return `${entry.originalSource.replace(/^(\.\.\/)+/, '')}:${(entry.originalLine ?? 0) + 1}`;
}

/** The text of `file:line` in this checkout. */
function sourceLine(where: string): string {
  const m = /^(src\/[^:]+):(\d+)$/.exec(where);
  return m === null ? '' : (readFileSync(join(ROOT, m[1]!), 'utf8').split('\n')[Number(m[2]) - 1] ?? '');
}

describe('optimised code in a long session', () => {
  it('is not thrown away when the answered ring wraps or an arena fills before its write', async () => {
    const { dir, cleanup } = tempDir();
    onTestFinished(cleanup);
    const v8log = join(dir, 'v8.log');
    const child = spawn(
      process.execPath,
      ['--log-deopt', `--logfile=${v8log}`, '--no-logfile-per-isolate', '--redirect-code-traces', `--redirect-code-traces-to=${join(dir, 'traces.txt')}`, CLI, '--log', join(dir, 'jsonrpc.log'), '--', process.execPath, ECHO],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (s: string) => (stderr += s));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const c = client(child);
    await c.call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'optimised-code', version: '1' } });
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    // enough small calls for the record path to be optimised, and for the answered ring (10,000) to wrap
    await c.phase(12_000, 1024, 64);
    // small ones: an arena holds thousands of their records (its columns grow past their first size)
    await c.phase(8000, 200, 64);
    // then 40 KB answers, 32 in flight: more than an arena (1 MiB) queued while a write is out
    await c.phase(300, 40_000, 32);
    child.stdin.end();
    expect(await closed, stderr).toBe(0);

    const maps = new Map<string, SourceMap>();
    // code-deopt,<time>,<size>,<code>,<inlining id>,<offset>,<kind>,<position> [inlined at …],<reason>
    const deopts = readFileSync(v8log, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('code-deopt,'))
      .map((l) => {
        const f = l.split(',');
        return { kind: f[6]!, where: sourceOf(f[7]!, maps), reason: f.slice(8).join(',') };
      });
    // left: an arena beyond the two kept free (a burst) is allocated by a call first made in the
    // session's first milliseconds, before V8 keeps feedback for its caller, so a burst may still cost
    // one deoptimisation there
    const watched = deopts.filter((d) => WATCHED.some((w) => d.where.startsWith(w)) && !sourceLine(d.where).includes('newBatch('));
    expect(watched, JSON.stringify(deopts, null, 1)).toEqual([]);
    // the log saw the session whole (a run that skipped the record path would pass the check above)
    const records = readFileSync(join(dir, 'jsonrpc.log'), 'utf8').split('\n').filter((l) => l.includes('"kind":"response"'));
    expect(records.length).toBe(1 + 12_000 + 8000 + 300);
  });
});
