/**
 * The Markdown export: a session as a maintainer wants it in a GitHub issue — who, what, how it ended,
 * the counts, the conversation with bodies folded away, and the server's stderr. Pure: records (already
 * redacted, or not) in, text out. Every wire string goes through md-escape.
 */
import { authChainText, type AuthLink } from '../log/auth-chain.js';
import type { ContextCost } from '../lens/context/context-cost.js';
import type { BatchItem, LogRecord, Note, PendingRequest } from '../log/record.js';
import { isRefusedProbeAnswer } from '../protocol/probe.js';
import { contextLines, tokenizerNote } from './context-text.js';
import { buildConversation, type Entry } from './conversation.js';
import { formatBytes, formatMs, formatOffset } from './format.js';
import { code, fence, html, prose, visibleJson } from './md-escape.js';
import { headerRows, type HeaderStyle } from './header-rows.js';
import { saneRecord } from './sane-record.js';
import { cutText, shortenJson } from './shorten-body.js';
import { sampleNotice, sampleOmittedLines, type SessionPlan } from './sampling.js';
import { groupSessions, summarizeSession, type SessionSummary } from './summary.js';

export interface MarkdownOptions {
  /** Whether the records were redacted; the header says so either way. */
  redacted: boolean;
  /** The mcp-tap that exports (may differ from the one that recorded). */
  exporterVersion: string;
  /** Bodies longer than this many characters are shortened (default 4000). */
  maxBody?: number;
  /** At most this many stderr lines are shown, first and last halves (default 400). */
  maxStderrLines?: number;
  /**
   * Long sessions shown in part (src/transcript/sampling.ts): per session id, its whole-session summary
   * and how it was sampled. Sessions not listed are summarized from the records given.
   */
  plans?: readonly SessionPlan[];
}

export const DEFAULT_MAX_BODY = 4000;
export const DEFAULT_MAX_STDERR_LINES = 400;

type Ctx = Required<Omit<MarkdownOptions, 'plans'>> & { h: string; start: number; cancelled: Set<number> };

function dir(from: string): string {
  return from === 'client' ? 'client → server' : from === 'server' ? 'server → client' : 'mcp-tap';
}

function idText(id: unknown): string {
  return code(id === undefined ? '(none)' : JSON.stringify(id) ?? String(id));
}

/** The Markdown look of the shared header rows. */
const MD_HEADER: HeaderStyle = { code: (t) => code(t, true), text: (t) => t, dash: '—' };

function renderHeader(s: SessionSummary, out: string[]): void {
  out.push('| | |', '|---|---|');
  for (const [k, v] of headerRows(s.header, MD_HEADER)) out.push(`| ${k} | ${v} |`);
  out.push('');
}

function pendingLine(p: PendingRequest): string {
  return `- #${p.seq} ${dir(p.from)} ${code(p.method)} id ${idText(p.id)}`;
}

function renderSummary(s: SessionSummary, ctx: Ctx, out: string[]): void {
  out.push(`${ctx.h}# Summary`, '');
  const k = s.kinds;
  out.push(
    '| | Count |',
    '|---|---:|',
    `| Requests | ${k.request} |`,
    `| Responses | ${k.response} |`,
    `| Error responses | ${s.errors} |`,
    ...(s.refusedProbes > 0 ? [`| Refused discovery probes (fallback) | ${s.refusedProbes} |`] : []),
    `| Notifications | ${k.notification} |`,
    `| Batches | ${k.batch} |`,
    `| Invalid lines | ${k.invalid} |`,
    `| stderr lines | ${k.stderr} |`,
    `| isError results | ${s.isErrorResults} |`,
    `| Findings | ${s.findings.total} |`,
    `| Unanswered requests | ${s.unansweredCount} |`,
    ...(s.tasks.count > 0 ? [`| Calls answered with a task (still running) | ${s.tasks.count} (${s.tasks.runningCount}) |`] : []),
    '',
  );
  if (s.lost > 0) out.push(`> [!WARNING]`, `> The log could not keep ${s.lost} record(s) of this session.`, '');
  if (s.findings.byCode.length > 0) {
    out.push('**Findings by code**', '');
    for (const f of s.findings.byCode) out.push(`- ${code(f.code)} × ${f.count}`);
    out.push('');
  }
  if (s.unanswered.length > 0) {
    out.push('**Unanswered requests**', '');
    for (const p of s.unanswered) out.push(pendingLine(p));
    if (s.unansweredCount > s.unanswered.length) out.push(`- … and ${s.unansweredCount - s.unanswered.length} more`);
    out.push('');
  }
  if (s.cancelled.length > 0) {
    out.push('**Cancelled, never answered**', '');
    for (const p of s.cancelled) out.push(pendingLine(p));
    out.push('');
  }
  if (s.tasks.running.length > 0) {
    out.push('**Tasks still running at the end**', '');
    for (const t of s.tasks.running) out.push(`${pendingLine({ from: t.from, id: t.id as PendingRequest['id'], method: t.method, seq: t.seq })} · task ${code(t.taskId, true)} ${t.status}`);
    if (s.tasks.runningCount > s.tasks.running.length) out.push(`- … and ${s.tasks.runningCount - s.tasks.running.length} more`);
    out.push('');
  }
  if (s.slowest.length > 0) {
    out.push('**Slowest calls**', '', '| # | Method | Target | Latency | Outcome |', '|---:|---|---|---:|---|');
    for (const c of s.slowest) {
      out.push(`| ${c.reqSeq ?? c.seq} | ${code(c.method, true)} | ${c.target !== undefined ? code(c.target, true) : ''} | ${formatMs(c.ms)} | ${c.outcome}${c.task ? ' (task)' : ''} |`);
    }
    out.push('');
  }
}

function notesBlock(notes: readonly Note[], out: string[]): void {
  if (notes.length === 0) return;
  out.push('> [!WARNING]');
  for (const n of notes) out.push(`> ${code(n.code)} ${prose(n.text)}  `);
  out.push('');
}

function bodyOf(r: LogRecord, ctx: Ctx): { text: string; lang: string; shortened: boolean } {
  if (r.msg !== undefined) {
    const b = shortenJson(r.msg, ctx.maxBody);
    return { text: visibleJson(b.text), lang: 'json', shortened: b.shortened };
  }
  const b = cutText(typeof r.raw === 'string' ? r.raw : '', ctx.maxBody);
  return { text: b.text, lang: 'text', shortened: b.shortened };
}

function details(label: string, r: LogRecord, ctx: Ctx, out: string[]): void {
  const body = bodyOf(r, ctx);
  const parts = [label];
  if (typeof r.bytes === 'number') parts.push(formatBytes(r.bytes));
  if (body.shortened) parts.push('shortened here');
  if (r.truncated) parts.push('shortened in the log');
  if (r.partial) parts.push('no final newline');
  out.push(`<details><summary>${html(parts.join(' · '))}</summary>`, '', fence(body.text, body.lang), '', '</details>');
}

function errorText(r: LogRecord): string {
  const m = r.msg as { error?: { code?: unknown; message?: unknown } } | undefined;
  const e = m && typeof m === 'object' ? m.error : undefined;
  if (!e || typeof e !== 'object') return 'error';
  const c = typeof e.code === 'number' ? ` ${e.code}` : '';
  const msg = typeof e.message === 'string' && e.message.length > 0 ? ` ${code(e.message.length > 200 ? `${e.message.slice(0, 200)}…` : e.message)}` : '';
  return `**error**${c}${msg}`;
}

/** A refused server/discover probe: the protocol working, so plain text, no bold error. */
function refusedText(r: LogRecord): string {
  const c = (r.msg as { error?: { code?: unknown } } | undefined)?.error?.code;
  return `refused probe (${typeof c === 'number' ? c : '?'}): the client falls back to initialize`;
}

/**
 * A record's place in its task: ` · task of #N <status>`, and on the record that ended it the task's
 * duration; an answer shown on its request's line (`ofCall` false) says only what it reports.
 */
function taskText(r: LogRecord | BatchItem, ofCall = true): string {
  if (typeof r.taskOf !== 'number') return '';
  const status = typeof r.taskStatus === 'string' ? ` ${code(r.taskStatus)}` : '';
  const ended = typeof r.taskMs === 'number' ? `, the task ended after ${formatMs(r.taskMs)}` : '';
  if (!ofCall) return status || ended ? ` · task${status}${ended}` : '';
  return ` · task of #${r.taskOf}${status}${ended}`;
}

function answerText(a: LogRecord): string {
  const lat = typeof a.ms === 'number' ? ` in ${formatMs(a.ms)}` : '';
  const created = typeof a.taskId === 'string' && typeof a.taskOf !== 'number';
  const what = isRefusedProbeAnswer(a, a.msg)
    ? refusedText(a)
    : a.kind === 'error'
      ? errorText(a)
      : created
        ? `task ${code(a.taskId!)} created${typeof a.taskStatus === 'string' ? ` (${code(a.taskStatus)})` : ''}`
        : a.isError
          ? '**isError** result'
          : 'result';
  const exchange = typeof a.exchangeMs === 'number' ? `, ${formatMs(a.exchangeMs)} for the whole exchange` : '';
  const ended = created && typeof a.taskMs === 'number' ? `, the task ended after ${formatMs(a.taskMs)}` : '';
  return `${what}${lat}${exchange}${ended}${taskText(a, false)} (#${a.seq})`;
}

function targetText(r: LogRecord): string {
  return typeof r.target === 'string' ? ` · ${code(r.target)}` : '';
}

const LISTS: Array<[string, string]> = [
  ['tools', 'tools'],
  ['prompts', 'prompts'],
  ['resources', 'resources'],
  ['resourceTemplates', 'resource templates'],
  ['roots', 'roots'],
];
const MAX_LISTED = 40;

/** For list results (tools/list, prompts/list, …): what they list by name, readable even when the body is shortened. */
function listedNames(a: LogRecord): string | undefined {
  const result = (a.msg as { result?: unknown } | undefined)?.result;
  if (result === null || typeof result !== 'object') return undefined;
  for (const [key, label] of LISTS) {
    const list = (result as Record<string, unknown>)[key];
    if (!Array.isArray(list)) continue;
    const names = list.map((x) => {
      const o = (x ?? {}) as Record<string, unknown>;
      const n = o['name'] ?? o['uri'] ?? o['uriTemplate'];
      return typeof n === 'string' ? n : '?';
    });
    const shown = names.slice(0, MAX_LISTED).map((n) => code(n)).join(', ');
    return `${names.length} ${label}${names.length > 0 ? `: ${shown}${names.length > MAX_LISTED ? `, … (+${names.length - MAX_LISTED})` : ''}` : ''}`;
  }
  return undefined;
}

function renderExchange(e: Extract<Entry, { type: 'exchange' }>, ctx: Ctx, out: string[]): void {
  const r = e.request;
  let outcome: string;
  if (e.answers.length > 0) outcome = e.answers.map(answerText).join('; ');
  else if (ctx.cancelled.has(r.seq)) outcome = '**cancelled, no answer**';
  else if (r.id === null || r.id === undefined) outcome = 'not tracked (id null)';
  else outcome = '**no answer**';
  const retry = typeof r.retryOf === 'number' ? ` · retry of #${r.retryOf}` : '';
  out.push(`${code(formatOffset(r.time - ctx.start))} **#${r.seq}** ${dir(r.from)} request ${code(r.method ?? '(no method)')}${targetText(r)} · id ${idText(r.id)}${retry}${taskText(r)} — ${outcome}`, '');
  for (const a of e.answers) {
    const listed = listedNames(a);
    if (listed !== undefined) out.push(listed, '');
  }
  notesBlock([...(r.notes ?? []), ...e.answers.flatMap((a) => a.notes ?? [])], out);
  details('request', r, ctx, out);
  for (const a of e.answers) {
    const label = `${isRefusedProbeAnswer(a, a.msg) ? 'refused probe' : a.kind === 'error' ? 'error' : a.isError ? 'isError result' : 'result'} #${a.seq}${typeof a.ms === 'number' ? ` · ${formatMs(a.ms)}` : ''}`;
    details(label, a, ctx, out);
  }
  out.push('');
}

function itemText(it: BatchItem): string {
  const parts: string[] = [it.kind];
  if (it.method !== undefined) parts.push(code(it.method));
  if (it.id !== undefined) parts.push(`id ${idText(it.id)}`);
  if (typeof it.reqSeq === 'number') parts.push(`answers #${it.reqSeq}`);
  if (typeof it.ms === 'number') parts.push(formatMs(it.ms));
  if (it.isError) parts.push('**isError**');
  return parts.join(' ');
}

function renderMessage(r: LogRecord, ctx: Ctx, out: string[]): void {
  const t = code(formatOffset(r.time - ctx.start));
  let line: string;
  switch (r.kind) {
    case 'notification':
      line = `${t} **#${r.seq}** ${dir(r.from)} notification ${code(r.method ?? '(no method)')}${targetText(r)}${typeof r.reqSeq === 'number' ? ` · for #${r.reqSeq}` : ''}${taskText(r)}`;
      break;
    case 'batch': {
      const items = Array.isArray(r.items) ? r.items : [];
      line = `${t} **#${r.seq}** ${dir(r.from)} batch of ${items.length}${items.length > 0 ? `: ${items.map(itemText).join('; ')}` : ''}`;
      break;
    }
    case 'invalid':
      line = `${t} **#${r.seq}** ${dir(r.from)} **invalid line**`;
      break;
    case 'response':
    case 'error':
      line = `${t} **#${r.seq}** ${dir(r.from)} ${r.kind === 'error' ? errorText(r) : 'response'} id ${idText(r.id)}${r.method !== undefined ? ` (${code(r.method)})` : ''} — pairs with no request${typeof r.reqSeq === 'number' ? ` (answers #${r.reqSeq})` : ''}`;
      break;
    default:
      line = `${t} **#${r.seq}** ${dir(r.from)} ${code(String(r.kind))}`;
  }
  out.push(line, '');
  notesBlock(r.kind === 'batch' ? [...(r.notes ?? []), ...(r.items ?? []).flatMap((i) => i.notes ?? [])] : (r.notes ?? []), out);
  details(r.kind === 'invalid' ? 'line' : String(r.kind), r, ctx, out);
  out.push('');
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** mcp-tap's own events in words. */
function describeEvent(r: LogRecord): string {
  switch (r.event) {
    case 'stdin-closed':
      return 'the host closed its side (stdin closed)';
    case 'stdout-closed':
      return 'the server closed its stdout';
    case 'host-gone':
      return `the host stopped reading${str(r['error']) ? ` (${code(str(r['error'])!)})` : ''}`;
    case 'signal':
      return `mcp-tap received ${code(str(r['signal']) ?? '?')} and forwarded it to the server`;
    case 'kill':
      return `mcp-tap sent ${code(str(r['signal']) ?? '?')} to the server${str(r['reason']) ? ` (${prose(str(r['reason'])!)})` : ''}`;
    case 'exit': {
      const sig = str(r['signal']);
      return sig ? `the server was ended by signal ${code(sig)}` : `the server exited with code ${str(r['code']) ?? '?'}`;
    }
    case 'gap':
      return `the log could not keep ${str(r['lost']) ?? 'some'} record(s)${str(r['reason']) ? ` (${prose(str(r['reason'])!)})` : ''}`;
    case 'log-error':
      return `the log could not be written${str(r['error']) ? `: ${code(str(r['error'])!)}` : ''}`;
    case 'spawn-error':
      return `the server could not be started${str(r['error']) ? `: ${code(str(r['error'])!)}` : ''}`;
    case 'auth': {
      const chain = Array.isArray(r['chain']) ? (r['chain'] as AuthLink[]) : [];
      return `sign-in ${code(authChainText(chain, typeof r['omitted'] === 'number' ? r['omitted'] : 0))}${r['ok'] === true ? '' : ' (not accepted)'}`;
    }
    case 'exchange':
      return `HTTP exchange: ${prose(str(r['notDecoded']) ?? str(r['error']) ?? (r['cut'] === true ? 'cut off' : ''))}`;
    default:
      return `event ${code(String(r.event ?? '?'))}`;
  }
}

function renderEvent(r: LogRecord, ctx: Ctx, out: string[]): void {
  out.push(`${code(formatOffset(r.time - ctx.start))} *#${r.seq} · ${describeEvent(r)}*`, '');
}

function renderStderr(lines: readonly LogRecord[], total: number, ctx: Ctx, out: string[]): void {
  out.push(`${ctx.h}# Server stderr`, '');
  if (total === 0) {
    out.push('The server wrote nothing to stderr.', '');
    return;
  }
  const fmt = (r: LogRecord) => `${formatOffset(r.time - ctx.start)}  ${typeof r.raw === 'string' ? r.raw : ''}${r.truncated ? ` … [shortened in the log: ${formatBytes(r.bytes ?? 0)}]` : ''}`;
  let shown: string[];
  if (lines.length > ctx.maxStderrLines) {
    const half = Math.floor(ctx.maxStderrLines / 2);
    shown = [...lines.slice(0, half).map(fmt), `… [${lines.length - 2 * half} lines left out] …`, ...lines.slice(lines.length - half).map(fmt)];
  } else shown = lines.map(fmt);
  const sampled = total > lines.length ? ` (${lines.length} of them here, with the rest of the sample)` : '';
  out.push(`${total} line${total === 1 ? '' : 's'}${sampled}, with the time since the session started.`, '', fence(shown.join('\n'), 'text'), '');
}

/** What the session costs the model's context: the lines stats prints, as a list. */
function renderContext(c: ContextCost, ctx: Ctx, out: string[]): void {
  out.push(`${ctx.h}# Context cost`, '');
  for (const line of contextLines(c, (s) => code(s))) out.push(line.startsWith('  ') ? `  - ${line.trim()}` : `- ${line}`);
  out.push('', `_${tokenizerNote(c)}._`, '');
}

/** One session, a piece at a time (each entry flushed as it is rendered, so the output is never one huge array). */
function* renderSession(records: readonly LogRecord[], opts: Opts, h: string, title: string, out: string[]): Generator<string> {
  const plan = opts.plans.find((p) => p.session === records[0]?.session);
  const summary = plan?.summary ?? summarizeSession(records);
  const ctx: Ctx = {
    ...opts,
    h,
    start: summary.header.start,
    cancelled: new Set(summary.cancelled.map((p) => p.seq)),
  };
  if (title) out.push(title, '');
  renderHeader(summary, out);
  renderSummary(summary, ctx, out);
  if (plan?.context) renderContext(plan.context, ctx, out);
  const conv = buildConversation(records);
  out.push(`${h}# Conversation`, '');
  const notice = plan ? sampleNotice(plan, records.length) : undefined;
  if (notice !== undefined) {
    const more = sampleOmittedLines(plan);
    out.push('> [!NOTE]', `> ${notice}`, ...(more.length > 0 ? ['>', ...more.map((l) => `> - ${prose(l)}`)] : []), '');
  }
  if (conv.entries.length === 0) out.push('No messages were exchanged.', '');
  for (const e of conv.entries) {
    if (e.type === 'exchange') renderExchange(e, ctx, out);
    else if (e.type === 'message') renderMessage(e.record, ctx, out);
    else renderEvent(e.record, ctx, out);
    yield* flush(out);
  }
  renderStderr(conv.stderr, Math.max(conv.stderr.length, summary.kinds.stderr), ctx, out);
  yield* flush(out);
}

function* flush(out: string[]): Generator<string> {
  if (out.length === 0) return;
  yield `${out.join('\n')}\n`;
  out.length = 0;
}

function sessionName(records: readonly LogRecord[]): string {
  for (const r of records) if (r.kind === 'event' && r.event === 'start' && typeof r['name'] === 'string') return r['name'];
  return 'unnamed server';
}

type Opts = Required<Omit<MarkdownOptions, 'plans'>> & { plans: readonly SessionPlan[] };

function* chunks(records: readonly LogRecord[], options: MarkdownOptions): Generator<string> {
  const opts: Opts = {
    maxBody: DEFAULT_MAX_BODY,
    maxStderrLines: DEFAULT_MAX_STDERR_LINES,
    ...options,
    plans: options.plans ?? [],
  };
  const sessions = groupSessions(records.map(saneRecord));
  const out: string[] = [];
  const notice = opts.redacted
    ? `Exported by mcp-tap ${opts.exporterVersion}. Secrets are redacted: values under secret-named keys, token shapes, secret command-line flags and known environment values read \`[REDACTED:<why>]\`.`
    : `Exported by mcp-tap ${opts.exporterVersion} **without redaction** (\`--no-redact\`): this transcript may contain secrets.`;
  if (sessions.length <= 1) {
    const recs = sessions[0] ?? [];
    out.push(`# MCP session: ${code(sessionName(recs))}`, '', notice, '');
    if (recs.length === 0) out.push('The log holds no records for this session.', '');
    else yield* renderSession(recs, opts, '#', '', out);
  } else {
    out.push(`# MCP sessions (${sessions.length})`, '', notice, '');
    for (const [i, recs] of sessions.entries()) {
      yield* renderSession(recs, opts, '##', `## Session ${i + 1} of ${sessions.length}: ${code(sessionName(recs))}`, out);
    }
  }
  yield* flush(out);
}

/** The Markdown export of the given records (one or more sessions, in order), piece by piece; ends with one newline. */
export function* markdownChunks(records: readonly LogRecord[], options: MarkdownOptions): Generator<string> {
  let held: string | undefined;
  for (const c of chunks(records, options)) {
    if (held !== undefined) yield held;
    held = c;
  }
  if (held !== undefined) yield `${held.trimEnd()}\n`;
}

/** The Markdown export as one string. */
export function renderMarkdown(records: readonly LogRecord[], options: MarkdownOptions): string {
  return [...markdownChunks(records, options)].join('');
}
