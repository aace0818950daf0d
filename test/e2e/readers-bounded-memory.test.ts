/**
 * The readers keep aggregates, not records: stats, check and every export format run on a log of
 * ~95 MB in a child whose V8 heap is capped at 96 MB (readers that held the session's records ran out
 * of heap on it). Long sessions export in part, with a note, and the summary of the part equals the
 * summary of the whole (`--full`, on a smaller log). The logs are written directly in the documented
 * format by bench/gen-log.mjs.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ESM script of the bench, shared with the reader bench
import { writeLargeLog } from '../../bench/gen-log.mjs';
import { runCliWithHeap, type CliRun } from '../helpers/heap-limited-cli.js';
import { tempDir } from '../helpers/paths.js';

const PAIRS = 36_000;
/** Still sampled (more than 4,000 records), small enough to export whole as a reference. */
const SMALL_PAIRS = 3_000;
const ERROR_EVERY = 997;
const IS_ERROR_EVERY = 1499;
const NOTE_EVERY = 2003;

let dir: string;
let cleanup: () => void;
let log: string;
let records: number;
let small: string;

/** The latencies the generator writes, computed here independently, and their nearest-rank percentile. */
const latencies = Array.from({ length: PAIRS }, (_, k) => 0.05 + (((k + 1) * 7919) % 1000) / 100).sort((a, b) => a - b);
const nearestRank = (p: number): number => latencies[Math.ceil((p / 100) * latencies.length) - 1]!;
const count = (pred: (i: number) => boolean): number => Array.from({ length: PAIRS }, (_, k) => k + 1).filter(pred).length;
const errors = count((i) => i % ERROR_EVERY === 0);
const isErrors = count((i) => i % IS_ERROR_EVERY === 0 && i % ERROR_EVERY !== 0);
const notes = count((i) => i % NOTE_EVERY === 0);

/** The CLI in a child with a 96 MB heap (or `heap` MB; none when false), output to a file. */
const run = (args: string[], out: string, heap: boolean | number = true): CliRun => runCliWithHeap(args, out, heap === true ? 96 : heap, 120_000);

/** The Markdown summary section: from `# Summary` to `# Conversation`. */
const mdSummary = (md: string): string => md.slice(md.indexOf('# Summary'), md.indexOf('# Conversation'));

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-bounded-'));
  log = join(dir, 'big.jsonrpc.log');
  const w = await writeLargeLog(log, { pairs: PAIRS, errorEvery: ERROR_EVERY, isErrorEvery: IS_ERROR_EVERY, noteEvery: NOTE_EVERY });
  records = w.records;
  expect(w.bytes).toBeGreaterThan(90_000_000);
  small = join(dir, 'small.jsonrpc.log');
  await writeLargeLog(small, { pairs: SMALL_PAIRS, errorEvery: 97, isErrorEvery: 149, noteEvery: 203 });
}, 60_000);
afterAll(() => cleanup?.());

describe('readers in a 96 MB heap on a ~95 MB log', () => {
  it('stats: exact counts and nearest-rank percentiles of every answer', () => {
    const r = run(['stats', '--json', log], join(dir, 'stats.json'));
    expect(r.code, r.err).toBe(0);
    const st = JSON.parse(r.text);
    expect(st.totals.records).toBe(records);
    expect(st.totals.messages).toBe(2 * PAIRS + 3);
    const call = st.methods.find((m: { method: string }) => m.method === 'tools/call');
    expect(call).toMatchObject({ count: PAIRS, answered: PAIRS, errors, isError: isErrors });
    expect(call.latency).toEqual({ n: PAIRS, p50: nearestRank(50), p95: nearestRank(95), p99: nearestRank(99), max: latencies.at(-1) });
    expect(st.findings).toEqual([{ code: 'slow-answer', count: notes }]);
  }, 120_000);

  // check keeps no fact per passing request: a 32 MB heap is enough (a check that listed every request needs more)
  it('check --format json (32 MB heap): judges every request, lists the first 1000 and every failing one, counts the rest', () => {
    const r = run(['check', '--format', 'json', log], join(dir, 'check.json'), 32);
    expect(r.code, r.err).toBe(1); // the planted findings fail it
    const rep = JSON.parse(r.text);
    expect(rep.summary).toMatchObject({ requests: PAIRS + 1, answered: PAIRS + 1, errors, isError: isErrors, unanswered: 0 });
    const failing = rep.requests.filter((q: { status: string }) => q.status !== 'ok');
    expect(failing.filter((q: { status: string }) => q.status === 'error')).toHaveLength(errors);
    expect(failing.filter((q: { status: string }) => q.status === 'is-error')).toHaveLength(isErrors);
    // the first 1000 (initialize and 999 calls), then the failing calls past them
    const pastFirst = count((i) => i > 999 && (i % ERROR_EVERY === 0 || i % IS_ERROR_EVERY === 0));
    expect(rep.requests).toHaveLength(1000 + pastFirst);
    expect(rep.omittedRequests).toBe(PAIRS + 1 - 1000 - pastFirst);
    const seqs = rep.requests.map((q: { seq: number }) => q.seq);
    expect(seqs).toEqual([...seqs].sort((a: number, b: number) => a - b));
  }, 120_000);

  it('check --format junit (32 MB heap): says how many passing requests it leaves out', () => {
    const r = run(['check', '--format', 'junit', log], join(dir, 'check.xml'), 32);
    expect(r.code, r.err).toBe(1);
    const pastFirst = count((i) => i > 999 && (i % ERROR_EVERY === 0 || i % IS_ERROR_EVERY === 0));
    expect(r.text.match(/classname="mcp-tap\.requests\./g)).toHaveLength(1000 + pastFirst);
    expect(r.text).toContain(`<system-out>… and ${PAIRS + 1 - 1000 - pastFirst} more passing requests`);
  }, 120_000);

  it('export --format jsonl: every record', () => {
    const jsonl = run(['export', '--format', 'jsonl', log], join(dir, 'out.jsonl'));
    expect(jsonl.code, jsonl.err).toBe(0);
    expect(jsonl.text.trimEnd().split('\n')).toHaveLength(records);
  }, 120_000);

  it('export Markdown: sampled with a note; errors, findings and the summary complete; the summary equals --full', () => {
    const md = run(['export', log], join(dir, 'out.md'));
    expect(md.code, md.err).toBe(0);
    expect(md.text).toContain(`This session has ${records.toLocaleString('en-US')} records;`);
    expect(md.text).toContain('Export with --full for every record.');
    // every error answer is there, and every finding
    expect(md.text.match(/\*\*error\*\* -32603 `planted error \d+`/g)).toHaveLength(errors);
    expect(md.text.match(/`slow-answer` planted finding \d+/g)).toHaveLength(notes);
    expect(md.text).toContain(`| Error responses | ${errors} |`);
    expect(md.text).toContain(`| isError results | ${isErrors} |`);
    expect(md.text).toContain(`| Requests | ${PAIRS + 1} |`);
    // far shorter than the whole conversation
    expect(md.text.match(/request `tools\/call`/g)!.length).toBeLessThan(PAIRS / 8);
    expect(mdSummary(md.text)).toContain('**Slowest calls**');
  }, 180_000);

  it('export HTML: sampled with a note, every error answer in it', () => {
    const html = run(['export', '--format', 'html', log], join(dir, 'out.html'));
    expect(html.code, html.err).toBe(0);
    expect(html.text).toContain(`This session has ${records.toLocaleString('en-US')} records;`);
    expect(new Set(html.text.match(/planted error \d+/g)).size).toBe(errors);
  }, 180_000);
});

describe('a sampled export summarizes the whole session', () => {
  it('Markdown: the summary (counts, findings, slowest calls) equals that of --full', () => {
    const md = run(['export', small], join(dir, 'small.md'), false);
    const full = run(['export', '--full', small], join(dir, 'small-full.md'), false);
    expect(md.code, md.err).toBe(0);
    expect(full.code, full.err).toBe(0);
    expect(md.text).toContain('Export with --full for every record.');
    expect(full.text).not.toContain('Export with --full');
    expect(full.text.match(/request `tools\/call`/g)).toHaveLength(SMALL_PAIRS);
    expect(md.text.match(/request `tools\/call`/g)!.length).toBeLessThan(SMALL_PAIRS);
    expect(mdSummary(md.text)).toContain(`| Error responses | ${Math.floor(SMALL_PAIRS / 97)} |`);
    expect(mdSummary(md.text)).toBe(mdSummary(full.text));
  }, 60_000);

  it('HTML: the header and summary card equals that of --full', () => {
    const html = run(['export', '--format', 'html', small], join(dir, 'small.html'), false);
    const full = run(['export', '--format', 'html', '--full', small], join(dir, 'small-full.html'), false);
    expect(html.code, html.err).toBe(0);
    expect(full.code, full.err).toBe(0);
    const head = (t: string) => t.slice(t.indexOf('<section class="card session-head"'), t.indexOf('</section>', t.indexOf('<section class="card session-head"')));
    expect(head(html.text)).toContain('records;');
    expect(head(full.text)).not.toContain('records;');
    expect(head(html.text).replace(/<p class="notice">[^<]*<\/p>/, '')).toBe(head(full.text));
  }, 60_000);
});
