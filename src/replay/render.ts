/** The replay result as text for a terminal (one line per exchange, differences below it) or as JSON. */
import type { ChalkInstance } from 'chalk';
import { escapeControl } from '../text/escape.js';
import type { Difference } from './compare.js';
import { LISTED_FAILURES, LISTED_OTHERS } from './report-rows.js';
import type { ReplayEntry, ReplayResult, ReplaySummary } from './result.js';

/** Where the replay came from and went, for the report's header and footer. */
export interface ReplayContext {
  logFile: string;
  command: string;
  args: readonly string[];
  /** The log of this replay and, when it could be read back, the session id it got there. */
  replayLog?: string;
  replaySession?: string;
}

const MAX_DIFFS = 10;

/** A value shown in one short, safe line. */
export function showValue(v: unknown, max = 80): string {
  let s: string;
  try {
    s = v === undefined ? 'nothing' : JSON.stringify(v);
  } catch {
    s = String(v);
  }
  s = escapeControl(s);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** One difference as `path: recorded → replayed`. */
export function showDifference(d: Difference): string {
  const path = escapeControl(d.path);
  switch (d.op) {
    case 'added':
      return `${path}: added ${showValue(d.replayed)}`;
    case 'removed':
      return `${path}: removed (was ${showValue(d.recorded)})`;
    case 'type':
      return `${path}: ${showValue(d.recorded)} → ${showValue(d.replayed)} (type changed)`;
    case 'changed':
      return `${path}: ${showValue(d.recorded)} → ${showValue(d.replayed)}${d.note ? ` (${d.note})` : ''}`;
  }
}

function label(e: ReplayEntry): string {
  const seq = e.seq !== undefined ? `#${e.seq} ` : '';
  const method = escapeControl(e.method ?? (e.type === 'stdout' ? 'stdout' : '(no method)'));
  const target = e.target !== undefined ? ` ${escapeControl(e.target)}` : '';
  const who = e.type === 'server-request' ? 'server asked ' : '';
  return `${seq}${who}${method}${target}`;
}

function mark(e: ReplayEntry, c: ChalkInstance): string {
  if (!e.failed && e.status !== 'same' && e.status !== 'not-replayed') return c.dim('·');
  switch (e.status) {
    case 'same':
      return c.green('✓');
    case 'different':
    case 'unexpected':
      return c.red('✗');
    case 'missing':
      return c.yellow('?');
    case 'not-replayed':
      return c.yellow('!');
    default:
      return c.dim('·');
  }
}

function timing(e: ReplayEntry): string {
  if (e.ms === undefined || e.status === 'missing') return '';
  const rec = e.recordedMs !== undefined ? ` (recorded ${Math.round(e.recordedMs)} ms)` : '';
  return `  ${Math.round(e.ms)} ms${rec}`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function counts(rec: Record<string, number>): string {
  const parts = Object.entries(rec)
    .sort((a, b) => b[1] - a[1])
    .map(([m, n]) => `${escapeControl(m)} ${n}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

/** The counts of a summary as the report words them: the non-zero ones; with `main`, same, different and missing even at 0. */
function tally(s: ReplaySummary, main = false): string[] {
  const parts: string[] = [];
  const add = (n: number, what: string, always = false): void => {
    if (n > 0 || always) parts.push(`${n} ${what}`);
  };
  add(s.same, 'same', main);
  add(s.different, 'different', main);
  add(s.missing, 'missing', main);
  add(s.unexpected, 'unexpected');
  add(s.notReplayed, 'not replayed');
  add(s.other, 'not counted');
  return parts;
}

/** The text report. */
export function renderText(r: ReplayResult, ctx: ReplayContext, c: ChalkInstance): string {
  const lines: string[] = [];
  const cmd = [ctx.command, ...ctx.args].map((a) => escapeControl(a)).join(' ');
  const what = r.mode === 'all' ? 'session' : 'selected calls of session';
  lines.push(c.bold(`mcp-tap replay: ${what} ${escapeControl(r.session)} of ${escapeControl(ctx.logFile)} against ${cmd}`));
  for (const e of r.entries) {
    const left = e.ignored ? c.dim(`  (${plural(e.ignored, 'field')} left out: volatile or --ignore)`) : '';
    lines.push(`  ${mark(e, c)} ${label(e)}${c.dim(timing(e))}${left}`);
    const diffs = e.differences ?? [];
    const all = diffs.length + (e.moreDifferences ?? 0);
    for (const d of diffs.slice(0, MAX_DIFFS)) lines.push(`      ${c.red(showDifference(d))}`);
    if (all > MAX_DIFFS) lines.push(`      … and ${all - MAX_DIFFS} more (--json shows ${e.moreDifferences ? `the first ${diffs.length}` : 'all'})`);
    for (const n of e.notes) lines.push(`      ${c.dim(escapeControl(n))}`);
  }
  if (r.notListed) {
    const n = Object.values(r.notListed).reduce((x, y) => x + y, 0);
    lines.push(`  … ${plural(n, 'more exchange')} not listed (${tally(r.notListed).join(', ')}): the report lists the first ${LISTED_FAILURES} that fail and the first ${LISTED_OTHERS} others; the totals below count them all`);
  }
  const recN = Object.values(r.notifications.recorded).reduce((a, b) => a + b, 0);
  const repN = Object.values(r.notifications.replayed).reduce((a, b) => a + b, 0);
  if (recN + repN > 0) {
    lines.push(c.dim(`  server notifications (not compared): recorded ${recN} (${counts(r.notifications.recorded)}); replayed ${repN} (${counts(r.notifications.replayed)})`));
  }
  if (r.strayAnswers > 0) lines.push(c.dim(`  ${plural(r.strayAnswers, 'answer')} to ids the replay never sent`));
  if (r.serverExit) {
    const how = r.serverExit.signal ? `was killed by ${r.serverExit.signal}` : `exited with code ${r.serverExit.code}`;
    lines.push(r.serverExit.early ? c.yellow(`  the server ${how} during the replay`) : c.dim(`  the server ${how} after the replay`));
  }
  if (ctx.replayLog) lines.push(c.dim(`  this replay is logged in ${escapeControl(ctx.replayLog)}${ctx.replaySession ? ` (session ${escapeControl(ctx.replaySession)})` : ''}`));
  const parts = tally(r.summary, true);
  const verdict = r.failed ? c.red('differences found: exit 1') : c.green('no differences: exit 0');
  lines.push(`${parts.join(', ')} — ${verdict}`);
  return `${lines.join('\n')}\n`;
}

/** The JSON report: the result plus where it came from. */
export function renderJson(r: ReplayResult, ctx: ReplayContext): string {
  return `${JSON.stringify({ log: ctx.logFile, command: ctx.command, args: ctx.args, replayLog: ctx.replayLog, replaySession: ctx.replaySession, ...r }, null, 2)}\n`;
}
