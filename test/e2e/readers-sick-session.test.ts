/**
 * issue 28 §1: every reader stays bounded when every record is bad. Two logs of 30,000 tools/call
 * round trips (bench/gen-log.mjs): one where the client never sent initialize, so every request carries
 * a before-initialize finding, one where the server answers every call with an error (and, for check,
 * one of 60,000 requests the server never answers). Each reader runs
 * in a child with a small V8 heap (check: 24 MB, the others 32 MB, the tokenizer of the readers that show
 * the context cost included: its ranks live outside the heap) — readers that kept every bad record
 * (check's results, the exports' bad records) ran out of heap on these logs, the exports even in 80 MB —
 * and its counts stay exact, with "… and N more" where it left records out.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ESM script of the bench, shared with the reader bench
import { writeLargeLog } from '../../bench/gen-log.mjs';
import { runCliWithHeap, type CliRun } from '../helpers/heap-limited-cli.js';
import { CLI, tempDir } from '../helpers/paths.js';

const PAIRS = 30_000;
const SMALL = 32;

let dir: string;
let cleanup: () => void;
let noInit: string;
let allErrors: string;
let neverAnswered: string;
let noInitRecords: number;

/** The CLI in a child with a `heap` MB V8 heap; its output (to a file) and exit. */
const run = (args: string[], heap: number): CliRun => runCliWithHeap(args, join(dir, `out-${Math.random().toString(36).slice(2)}`), heap);

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-sick-'));
  noInit = join(dir, 'no-init.jsonrpc.log');
  allErrors = join(dir, 'all-errors.jsonrpc.log');
  noInitRecords = (await writeLargeLog(noInit, { pairs: PAIRS, payloadBytes: 128, handshake: false, requestNote: 'before-initialize' })).records;
  await writeLargeLog(allErrors, { pairs: PAIRS, payloadBytes: 128, errorEvery: 1, session: 'mz00bench-0000e770' });
  neverAnswered = join(dir, 'never-answered.log'); // no .jsonrpc.log: not among the logs ls and ui read
  await writeLargeLog(neverAnswered, { pairs: 2 * PAIRS, payloadBytes: 128, unanswered: true });
}, 60_000);
afterAll(() => cleanup?.());

const more = (n: number, what: string) => `… and ${n.toLocaleString('en-US')} more ${what}`;

describe('check in a 24 MB heap: verdict and counts exact, the first 1,000 results of each rule listed', () => {
  it('json: every request judged, 29,000 findings counted, not listed', () => {
    const r = run(['check', '--format', 'json', noInit], 24);
    expect(r.code, r.err).toBe(1);
    const rep = JSON.parse(r.text);
    expect(rep.summary).toMatchObject({ requests: PAIRS, answered: PAIRS, findings: PAIRS, errors: 0 });
    expect(rep.failed).toEqual(['findings']);
    expect(rep.problems).toHaveLength(1000);
    expect(rep.omittedResults).toEqual([{ ruleId: 'before-initialize', category: 'findings', count: PAIRS - 1000 }]);
  });

  it('sarif: at most 5,000 results; the run says how many before-initialize results it left out', () => {
    const r = run(['check', '--format', 'sarif', noInit], 24);
    expect(r.code, r.err).toBe(1);
    const run0 = JSON.parse(r.text).runs[0];
    expect(run0.results.length).toBe(1000);
    const [note] = run0.invocations[0].toolExecutionNotifications;
    expect(note.associatedRule.id).toBe('before-initialize');
    expect(note.properties.omitted).toBe(PAIRS - 1000);
    expect(note.message.text).toContain(more(PAIRS - 1000, 'before-initialize findings'));
    expect(run0.properties.omittedResults).toEqual({ total: PAIRS - 1000, byRule: { 'before-initialize': PAIRS - 1000 } });
  });

  it('text: the error count exact, the rest of the errors of code -32603 counted', () => {
    const r = run(['check', '--fail-on', 'errors', allErrors], 24);
    expect(r.code, r.err).toBe(1);
    expect(r.text).toContain(`requests  ${PAIRS + 1}: ${PAIRS + 1} answered, ${PAIRS} errors`);
    expect(r.text).toContain(more(PAIRS - 1000, 'jsonrpc-error results (error -32603)'));
    expect(r.text.match(/^  [✗!] jsonrpc-error /gm)).toHaveLength(1000);
  });

  it('json: 60,000 requests never answered, counted exactly, the first 1,000 listed', () => {
    const r = run(['check', '--format', 'json', neverAnswered], 24);
    expect(r.code, r.err).toBe(1);
    const rep = JSON.parse(r.text);
    expect(rep.summary).toMatchObject({ requests: 2 * PAIRS + 1, answered: 1, unanswered: 2 * PAIRS });
    expect(rep.omittedResults).toEqual([{ ruleId: 'unanswered-request', category: 'unanswered', count: 2 * PAIRS - 1000 }]);
    expect(rep.omittedRequestsByStatus).toEqual({ unanswered: 2 * PAIRS - 1000 });
  });

  it('junit: bounded testcases, the left-out requests counted by status', () => {
    const r = run(['check', '--format', 'junit', allErrors], 24);
    expect(r.code, r.err).toBe(0); // errors do not fail by default
    expect(r.text.match(/classname="mcp-tap\.requests\./g)).toHaveLength(1001);
    expect(r.text).toContain(`… and ${PAIRS - 1000} more requests with status error`);
  });
});

describe('the other readers in a 32 MB heap', () => {
  it('export Markdown: sampled, the first of each finding code shown, the rest counted', () => {
    const r = run(['export', noInit], SMALL);
    expect(r.code, r.err).toBe(0);
    const m = /> - … and ([\d,]+) more before-initialize findings/.exec(r.text);
    expect(m, r.text.slice(0, 2000)).not.toBeNull();
    expect(Number(m![1]!.replace(/,/g, ''))).toBeGreaterThan(PAIRS - 3000);
    expect(r.text).toContain(`| Findings | ${PAIRS} |`);
  });

  it('export HTML: sampled, the errors of code -32603 counted', () => {
    const r = run(['export', '--format', 'html', allErrors], SMALL);
    expect(r.code, r.err).toBe(0);
    expect(r.text).toMatch(/<li>… and [\d,]+ more error answers with code -32603<\/li>/);
  });

  it('stats: exact finding count', () => {
    const r = run(['stats', '--json', noInit], SMALL);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.text).findings).toEqual([{ code: 'before-initialize', count: PAIRS }]);
  });

  it('export --format jsonl and tail --json: every record', () => {
    const jsonl = run(['export', '--format', 'jsonl', allErrors], SMALL);
    expect(jsonl.code, jsonl.err).toBe(0);
    expect(jsonl.text.trimEnd().split('\n')).toHaveLength(2 * PAIRS + 9);
    const tail = spawnSync(process.execPath, [`--max-old-space-size=${SMALL}`, CLI, 'tail', '--json', noInit], { encoding: 'utf8', maxBuffer: 1 << 30, timeout: 60_000 });
    expect(tail.status, tail.stderr).toBe(0);
    expect(tail.stdout.trimEnd().split('\n')).toHaveLength(noInitRecords);
  });

  it('ls and ui: both sessions listed; the ui streams every row of the all-bad session', async () => {
    const ls = spawnSync(process.execPath, [`--max-old-space-size=${SMALL}`, CLI, 'ls', '--dir', dir], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
    expect(ls.status, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('no-init');
    expect(ls.stdout).toContain('all-errors');
    const ui = spawn(process.execPath, [`--max-old-space-size=${SMALL}`, CLI, 'ui', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      let err = '';
      ui.stdout.on('data', (d) => (out += d));
      await new Promise<void>((resolve, reject) => {
        ui.stderr.on('data', (d) => {
          err += d;
          if (/serving/.test(err)) resolve();
        });
        ui.once('exit', (code) => reject(new Error(`ui exited ${code}: ${err}`)));
      });
      const url = new URL(/http:\S+/.exec(out)![0]);
      const base = `http://127.0.0.1:${url.port}`;
      const token = url.searchParams.get('token')!;
      const sessions = (await (await fetch(`${base}/api/sessions?token=${token}`)).json()) as { cards: Array<{ log: number; session: string; findings: number; records: number }> };
      const card = sessions.cards.find((c) => c.findings > 0)!;
      expect(card).toMatchObject({ findings: PAIRS, records: noInitRecords });
      const rows = await (await fetch(`${base}/api/rows?log=${card.log}&session=${card.session}&token=${token}`)).text();
      expect(rows.trimEnd().split('\n')).toHaveLength(noInitRecords);
    } finally {
      ui.kill('SIGTERM');
    }
  }, 60_000);
});
