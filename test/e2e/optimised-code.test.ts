/**
 * A long healthy session keeps the record path's optimised code: paths that first run thousands of
 * messages in — the answered ring's first eviction (at 10,000 answers), an arena holding more records than
 * its columns' first size (small messages), an arena filled before its write (a burst of more than 1 MiB
 * between two writes), more requests in flight than the pending ids' index had room for at first (its
 * probing, growth and backward shift) — used to deoptimise the code that had been compiled for the
 * session's first messages, so V8 compiled it again in the middle of the traffic. The proxy runs with V8's
 * log of deoptimisations and compiles (its traces go to a file: stdout stays the server's); each
 * deoptimisation is mapped through the bundle's source maps to the source line it happened at.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { runTap, tapSandbox } from '../helpers/run-tap.js';

const sandbox = tapSandbox('mcp-tap-optimised-');

const ECHO = join(ROOT, 'bench', 'echo-server.mjs');
/** Source files whose late paths must not deoptimise their optimised callers. */
const WATCHED = ['src/session/answered-ring.ts', 'src/session/int-slots.ts', 'src/session/pending-index.ts', 'src/log/record-queue.ts', 'src/session/session.ts'];

interface Deopt {
  kind: string;
  /** `src/…:line` (or V8's position when it is not in the bundle). */
  where: string;
  /** The source line's text, from the source map. */
  text: string;
  reason: string;
}

/** Drives the proxy: `calls` echo calls of `bytes`, `depth` in flight; an answer nobody asked for fails the phase. */
function client(child: ChildProcessWithoutNullStreams) {
  const waiting = new Map<number, () => void>();
  let failure: Error | undefined;
  let fail: (err: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  let carry = '';
  let nextId = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (s: string) => {
    const lines = (carry + s).split('\n');
    carry = lines.pop()!;
    for (const line of lines) {
      const msg = JSON.parse(line) as { id?: number; method?: string };
      if (msg.id === undefined && msg.method !== undefined) continue; // a notification (the stream tool's)
      const id = msg.id;
      const done = id === undefined ? undefined : waiting.get(id);
      if (done === undefined) {
        failure ??= new Error(`an answer nobody asked for: ${line.slice(0, 120)}`);
        return fail(failure);
      }
      waiting.delete(id!);
      done();
    }
  });
  const call = (method: string, params: unknown): Promise<void> =>
    Promise.race([
      failed,
      new Promise<void>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        child.stdin.write(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}\n`);
      }),
    ]);
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

/** Positions in the bundle → source lines, through its source maps (with the sources they embed). */
class Sources {
  private readonly maps = new Map<string, SourceMap>();
  private readonly texts = new Map<string, string[]>();

  /** `file:///…/dist/x.js`, 1-based line and column → `{ where: 'src/…:line', text }`, or null outside the bundle. */
  at(url: string, line: number, column: number): { where: string; text: string } | null {
    if (!url.startsWith('file://') || !url.includes('/dist/')) return null;
    const file = fileURLToPath(url);
    let map = this.maps.get(file);
    if (map === undefined) {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
      this.maps.set(file, map);
    }
    const e = map.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number };
    if (e.originalSource === undefined || e.originalLine === undefined) return null;
    const source = e.originalSource.replace(/^(\.\.\/)+/, '');
    const payload = map.payload as { sources: string[]; sourcesContent?: (string | null)[] };
    const i = payload.sources.indexOf(e.originalSource);
    let lines = this.texts.get(source);
    if (lines === undefined) {
      lines = (payload.sourcesContent?.[i] ?? '').split('\n');
      this.texts.set(source, lines);
    }
    return { where: `${source}:${e.originalLine + 1}`, text: lines[e.originalLine] ?? '' };
  }
}

/** A session through the proxy (runTap, node's flags for V8's log) in this test's scratch directory; `drive` sends its traffic. Returns V8's log and mcp-tap's, as lines. */
async function session(drive: (c: ReturnType<typeof client>) => Promise<void>): Promise<{ v8: string[]; records: string[] }> {
  const dir = sandbox.dir;
  const v8log = join(dir, 'v8.log');
  const nodeArgs = ['--log-deopt', '--log-function-events', `--logfile=${v8log}`, '--no-logfile-per-isolate', '--redirect-code-traces', `--redirect-code-traces-to=${join(dir, 'traces.txt')}`];
  const run = sandbox.track(runTap(['--log', join(dir, 'jsonrpc.log'), '--', process.execPath, ECHO], { collect: false, nodeArgs }));
  const c = client(run.child);
  try {
    await c.call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'optimised-code', version: '1' } });
    run.child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await drive(c);
  } finally {
    run.child.stdin.end();
  }
  expect((await run.exited(60_000)).code, run.stderr()).toBe(0);
  const records = readFileSync(join(dir, 'jsonrpc.log'), 'utf8').split('\n');
  return { v8: readFileSync(v8log, 'utf8').split('\n'), records };
}

/** Every deoptimisation in V8's log, at the source line of its innermost frame. */
function deoptsOf(v8: string[], sources: Sources): Deopt[] {
  // code-deopt,<time>,<size>,<code>,<inlining id>,<offset>,<kind>,<position> [inlined at …],<reason>
  return v8
    .filter((l) => l.startsWith('code-deopt,'))
    .map((l) => {
      const f = l.split(',');
      const m = /^<([^>]+):(\d+):(\d+)>/.exec(f[7]!);
      const at = m === null ? null : sources.at(m[1]!, Number(m[2]), Number(m[3]));
      return { kind: f[6]!, where: at?.where ?? f[7]!, text: at?.text.trim() ?? '', reason: f.slice(8).join(',') };
    });
}

/** How many times TurboFan compiled each function of the bundle: `src/…:line name` → count. */
function turbofanCompiles(v8: string[], sources: Sources): Map<string, number> {
  // script-details,<id>,<url>,…  and  function,turbofan,<script id>,<start>,<end>,<ms>,<time>,<name>
  const urls = new Map<string, string>();
  for (const l of v8) if (l.startsWith('script-details,')) urls.set(l.split(',')[1]!, l.split(',')[2]!);
  const texts = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const l of v8) {
    if (!l.startsWith('function,turbofan,')) continue;
    const f = l.split(',');
    const url = urls.get(f[2]!) ?? '';
    if (!url.includes('/dist/')) continue;
    let text = texts.get(url);
    if (text === undefined) {
      text = readFileSync(fileURLToPath(url), 'utf8');
      texts.set(url, text);
    }
    const before = text.slice(0, Number(f[3]));
    const line = before.split('\n').length;
    const at = sources.at(url, line, before.length - before.lastIndexOf('\n'));
    const key = `${at?.where ?? url} ${f[7] ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const watched = (d: Deopt): boolean => WATCHED.some((w) => d.where.startsWith(`${w}:`));

describe('optimised code in a long session', () => {
  it('is compiled once and kept while the answered ring wraps and arenas outgrow their columns', async () => {
    const { v8, records } = await session(async (c) => {
      // the server's notifications seen from the start (a kind first seen late is another matter)
      await c.call('tools/call', { name: 'stream', arguments: { count: 50, size: 1 } });
      // enough calls for the record path to be optimised, and for the answered ring (10,000) to wrap
      await c.phase(12_000, 1024, 64);
      // small ones: an arena holds thousands of their records (its columns grow past their first size)
      await c.phase(8000, 200, 64);
      // a burst of tiny notifications: thousands of records reach one arena within the log's 5 ms
      // coalescing, however fast its writes are
      await c.call('tools/call', { name: 'stream', arguments: { count: 20_000, size: 1 } });
    });
    const sources = new Sources();
    const deopts = deoptsOf(v8, sources);
    expect(deopts.filter(watched), JSON.stringify(deopts, null, 1)).toEqual([]);
    // the record path was optimised (the check above is not vacuous), and only once: a second compile is
    // a deoptimisation of it, wherever it happened
    const compiles = turbofanCompiles(v8, sources);
    const appends = [...compiles].filter(([k]) => k.startsWith('src/log/record-queue.ts:') && k.endsWith(' appendRecord'));
    expect(appends, JSON.stringify([...compiles], null, 1)).toHaveLength(1);
    expect(appends[0]![1]).toBe(1);
    expect(records.filter((l) => l.includes('"kind":"response"'))).toHaveLength(1 + 1 + 12_000 + 8000 + 1);
    expect(records.filter((l) => l.includes('"method":"notifications/message"'))).toHaveLength(50 + 20_000);
  });

  it('is kept when lines start to span chunks', async () => {
    const { v8 } = await session(async (c) => {
      // one call in flight: every line arrives whole in its own chunk, long enough for the line path to
      // be optimised on whole lines
      await c.phase(4000, 200, 1);
      // then 40 KB calls, 16 in flight: lines cut at the pipe's chunk boundaries, joined by the splitter
      await c.phase(200, 40_000, 16);
    });
    const deopts = deoptsOf(v8, new Sources());
    expect(deopts.filter(watched), JSON.stringify(deopts, null, 1)).toEqual([]);
  });

  it('is kept when more requests are in flight than before', async () => {
    const { v8, records } = await session(async (c) => {
      await c.phase(6000, 1024, 64);
      // 300 in flight: the pending ids' index shifts cells back on delete and grows past its first size
      await c.phase(3000, 200, 300);
    });
    const deopts = deoptsOf(v8, new Sources());
    // the id index and its callers (an arena filled by a burst of these is the next test's)
    const arena = (d: Deopt): boolean => d.where.startsWith('src/log/record-queue.ts:');
    expect(
      deopts.filter((d) => watched(d) && !arena(d)),
      JSON.stringify(deopts, null, 1),
    ).toEqual([]);
    expect(records.filter((l) => l.includes('"kind":"response"'))).toHaveLength(1 + 6000 + 3000);
  });

  it('is kept when a burst fills an arena before its write', async () => {
    const { v8, records } = await session(async (c) => {
      await c.phase(6000, 1024, 64);
      // 40 KB answers, 32 in flight: more than an arena (1 MiB) queued while a write is out
      await c.phase(300, 40_000, 32);
    });
    const deopts = deoptsOf(v8, new Sources());
    // left: an arena beyond those kept free is allocated by a call first made in the session's first
    // milliseconds, before V8 keeps feedback for its caller, so a burst may still cost this one
    const allocation = (d: Deopt): boolean => d.text.includes('newBatch(ARENA_BYTES)') && d.reason === 'Insufficient type feedback for call';
    expect(
      deopts.filter((d) => watched(d) && !allocation(d)),
      JSON.stringify(deopts, null, 1),
    ).toEqual([]);
    expect(records.filter((l) => l.includes('"kind":"response"'))).toHaveLength(1 + 6000 + 300);
  });
});
