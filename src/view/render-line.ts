/**
 * One log record → the text `mcp-tap tail` prints for it: a line with aligned columns (time, seq,
 * direction, kind, id, method and target, latency and the request answered, errors and findings), session
 * separators for start and end, and with `full` the body below it. Pure: no I/O, colour level passed in.
 * Every string that came from the wire or the server goes through wireText (escaped) before display.
 */
import { isRefusedProbeAnswer } from '../protocol/probe.js';
import type { LogRecord } from '../log/record.js';
import type { ColorLevel } from './color.js';
import { asObject, formatClock, formatMs, padLeft, padRight } from './format.js';
import { latencyStyle, paletteFor, type LineCtx, type Palette, type Seg } from './line-style.js';
import { firstText, mainText, msgField } from './message-text.js';
import { ID_MAX, KIND_LABEL, notesOf } from './record-parts.js';
import { renderBody } from './render-body.js';
import { endSeparator, startSeparator } from './separators.js';
import type { SessionInfo } from './session-context.js';
import { wireId, wireText } from './wire-text.js';

export interface RenderOptions {
  /** true/false, or an explicit chalk level (0–3). */
  color: boolean | ColorLevel;
  /** Add the body (message JSON, raw text, event fields) below the line. */
  full: boolean;
  /** Terminal width, used to shorten previews and draw separators; unknown → 120. */
  width?: number;
  /** What is known about the record's session (server name, exit code) for the separators. */
  session?: SessionInfo;
}

const SEQ_W = 6;
const KIND_W = 7;
const ID_W = 8;
const MAIN_W = 42;
const MS_W = 8;
const DEFAULT_WIDTH = 120;

/** Renders one record; the result has no trailing newline and may span several lines (separators, --full). */
export function renderRecord(record: LogRecord, opts: RenderOptions): string {
  const fit = opts.width !== undefined && opts.width > 40;
  const ctx: LineCtx = { c: paletteFor(opts.color), full: opts.full, width: fit ? opts.width! : DEFAULT_WIDTH, fit };
  const r = (asObject(record) ?? {}) as LogRecord;
  if (r.kind === 'event' && r.event === 'start') return startSeparator(r, ctx);
  if (r.kind === 'event' && r.event === 'end') return endSeparator(r, ctx, opts.session);
  const line = mainLine(r, ctx);
  if (!ctx.full) return line;
  const body = renderBody(r, { indent: ' '.repeat(headWidth()) });
  return body ? `${line}\n${ctx.c.dim(body)}` : line;
}

function headWidth(): number {
  return 12 + 1 + SEQ_W + 1 + 1 + 1 + KIND_W + 1;
}

/** time, seq, arrow, kind: the same width on every line. */
function head(r: LogRecord, c: Palette): string {
  const time = c.gray(formatClock(r.time));
  const seq = c.gray(padLeft(typeof r.seq === 'number' ? `#${r.seq}` : '#?', SEQ_W));
  const arrow = arrowFor(r, c);
  const label = KIND_LABEL[String(r.kind)] ?? wireText(r.kind ?? '?', 24);
  const kind = kindStyle(r, c)(padRight(label, KIND_W));
  return `${time} ${seq} ${arrow} ${kind} `;
}

function arrowFor(r: LogRecord, c: Palette): string {
  if (r.kind === 'stderr') return c.yellow('!');
  if (r.from === 'client') return c.cyan('→');
  if (r.from === 'server') return c.magenta('←');
  if (r.from === 'proxy') return c.gray('•');
  return '?';
}

function kindStyle(r: LogRecord, c: Palette): (s: string) => string {
  switch (r.kind) {
    case 'request':
      return c.cyan;
    case 'response':
      return r.isError ? c.red : c.green;
    case 'error':
      return isRefusedProbeAnswer(r, r.msg) ? c.gray : c.red;
    case 'invalid':
      return c.red;
    case 'notification':
      return c.blue;
    case 'batch':
      return c.magenta;
    case 'stderr':
      return c.dim;
    case 'event':
      return c.gray;
    default:
      return (s: string) => s;
  }
}

function mainLine(r: LogRecord, ctx: LineCtx): string {
  const { c } = ctx;
  const isAnswer = r.kind === 'response' || r.kind === 'error';
  const hasLatency = isAnswer || typeof r.ms === 'number' || typeof r.reqSeq === 'number';
  // room for the method column: the line's width minus the fixed columns and the latency column
  const mainMax = Math.max(MAIN_W, ctx.width - headWidth() - ID_W - 1 - (hasLatency ? MS_W + 8 : 0));

  // id column
  let idText = '';
  const id = r.id !== undefined ? r.id : msgField(r.msg, 'id');
  if (id !== undefined && r.kind !== 'stderr' && r.kind !== 'event' && r.kind !== 'batch') {
    idText = wireId(id, ctx.full ? Number.POSITIVE_INFINITY : ID_MAX);
  }

  // method + target + details
  const main: Seg[] = mainText(r, ctx, mainMax);
  const tail: Seg[] = [];

  if (hasLatency) {
    const ms = typeof r.ms === 'number' ? formatMs(r.ms) : '';
    tail.push([padLeft(ms, MS_W), latencyStyle(r.ms, c)]);
    if (typeof r.reqSeq === 'number') tail.push([` ${isAnswer ? '↩' : '↪'} #${r.reqSeq}`, c.gray]);
    if (typeof r.exchangeMs === 'number') tail.push([` (exchange ${formatMs(r.exchangeMs)})`, c.gray]);
  }
  if (typeof r.retryOf === 'number') tail.push([` ↻ retry of #${r.retryOf}`, c.gray]);
  taskTail(r, c, tail);
  if (r.kind === 'error') {
    const err = asObject(msgField(r.msg, 'error'));
    const code = err?.code;
    const message = err?.message;
    const parts: string[] = [];
    if (code !== undefined) parts.push(wireText(code, 24));
    if (message !== undefined) parts.push(wireText(message, ctx.full ? 2000 : 200));
    if (isRefusedProbeAnswer(r, r.msg)) tail.push([` · refused probe${parts.length ? ' ' + parts.join(' ') : ''}: the client falls back to initialize`, c.gray]);
    else tail.push([` ✗ error${parts.length ? ' ' + parts.join(' ') : ''}`, c.red]);
  }
  if (r.inputRequired === true) tail.push([' ⋯ input required: the client answers and retries', c.yellow]);
  if (r.isError === true) {
    const text = firstText(msgField(msgField(r.msg, 'result'), 'content'));
    tail.push([` ✗ isError${text !== undefined ? ': ' + wireText(text, ctx.full ? 2000 : 120) : ''}`, c.red]);
  }
  if (r.truncated === true) tail.push([' [truncated]', c.gray]);
  if (r.partial === true) tail.push([' [no newline at end]', c.gray]);
  for (const note of notesOf(r)) {
    tail.push([` ⚠ ${wireText(note.text ?? '', ctx.full ? 4000 : 400)}${note.code !== undefined ? ` [${wireText(note.code, 60)}]` : ''}`, c.yellow]);
  }

  let out = head(r, c);
  out += tail.length || main.length ? padRight(idText, ID_W) : idText;
  out += ' ';
  const mainPlain = main.map((s) => s[0]).join('');
  out += main.map(([t, st]) => (st ? st(t) : t)).join('');
  if (tail.length) {
    const padding = mainPlain.length < MAIN_W ? ' '.repeat(MAIN_W - mainPlain.length) : '';
    out += padding;
    out += tail.map(([t, st]) => (st ? st(t) : t)).join('');
  }
  return out.trimEnd();
}

/** Tasks: the answer that created one, a record of one (`task of #N`), the status, and where it ended its duration. */
function taskTail(r: LogRecord, c: Palette, tail: Seg[]): void {
  if (typeof r.taskId !== 'string') return;
  const status = typeof r.taskStatus === 'string' ? wireText(r.taskStatus, 30) : undefined;
  const style = r.taskStatus === 'failed' ? c.red : r.taskStatus === 'input_required' ? c.yellow : c.cyan;
  if (typeof r.taskOf !== 'number') {
    tail.push([` ⧗ task ${wireText(r.taskId, 40)}${status !== undefined ? ` ${status}` : ''}: the call runs on as a task`, style]);
  } else {
    tail.push([` ⧗ task of #${r.taskOf}${status !== undefined ? ` ${status}` : ''}`, style]);
  }
  if (typeof r.taskMs === 'number') tail.push([` — the task took ${formatMs(r.taskMs)}`, latencyStyle(r.taskMs, c)]);
}
