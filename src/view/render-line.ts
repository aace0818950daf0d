/**
 * One log record → the text `mcp-tap tail` prints for it: a line with aligned columns (time, seq,
 * direction, kind, id, method and target, latency and the request answered, errors and findings), session
 * separators for start and end, and with `full` the body below it. Pure: no I/O, colour level passed in.
 * Every string that came from the wire or the server goes through wireText (escaped) before display.
 */
import { isRefusedProbeAnswer } from '../protocol/probe.js';
import type { ChalkInstance } from 'chalk';
import type { BatchItem, LogRecord, Note } from '../log/record.js';
import { makeChalk, type ColorLevel } from './color.js';
import { asObject, formatClock, formatDateTime, formatMs, padLeft, padRight, shorten } from './format.js';
import { renderBody } from './render-body.js';
import { batchItemText, extraFields, ID_MAX, KIND_LABEL } from './record-parts.js';
import type { SessionInfo } from './session-context.js';
import { wireId, wireText } from './wire-text.js';
import { httpEventText } from './http-event-text.js';

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

const STYLES = ['gray', 'red', 'yellow', 'green', 'cyan', 'magenta', 'blue', 'dim', 'bold', 'underline'] as const;
/** The styles the view uses, made once per colour level (a chalk getter builds a new function on every use). */
type Palette = Record<(typeof STYLES)[number] | 'boldCyan' | 'boldYellow', (s: string) => string>;
const palettes = new Map<ColorLevel, Palette>();

function paletteFor(color: boolean | ColorLevel): Palette {
  const level: ColorLevel = color === true ? 1 : color === false ? 0 : color;
  let p = palettes.get(level);
  if (!p) {
    const chalk = makeChalk(level);
    const plain = (s: string): string => s;
    p = {
      ...(Object.fromEntries(STYLES.map((k) => [k, level === 0 ? plain : chalk[k]])) as Record<(typeof STYLES)[number], (s: string) => string>),
      boldCyan: level === 0 ? plain : chalk.bold.cyan,
      boldYellow: level === 0 ? plain : chalk.bold.yellow,
    };
    palettes.set(level, p);
  }
  return p;
}

interface Ctx {
  c: Palette;
  full: boolean;
  width: number;
  /** The width is the terminal's: cut raw text to fit it. Otherwise (a pipe, a file) keep more of it. */
  fit: boolean;
}

/** Raw text (stderr, non-JSON lines) kept on a line when the output is not a terminal. */
const RAW_MAX_UNFITTED = 1000;

/** Renders one record; the result has no trailing newline and may span several lines (separators, --full). */
export function renderRecord(record: LogRecord, opts: RenderOptions): string {
  const fit = opts.width !== undefined && opts.width > 40;
  const ctx: Ctx = { c: paletteFor(opts.color), full: opts.full, width: fit ? opts.width! : DEFAULT_WIDTH, fit };
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

/** A piece of a line: plain text (already escaped) and how to colour it. */
type Seg = [text: string, style?: (s: string) => string];

function mainLine(r: LogRecord, ctx: Ctx): string {
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

function latencyStyle(ms: unknown, c: Palette): (s: string) => string {
  if (typeof ms !== 'number') return c.gray;
  if (ms >= 1000) return c.red;
  if (ms >= 100) return c.yellow;
  return c.green;
}

/** The method column: method, target, and a short summary of well-known notifications. */
function mainText(r: LogRecord, ctx: Ctx, max: number): Seg[] {
  const { c } = ctx;
  switch (r.kind) {
    case 'stderr':
      return [[wireText(r.raw ?? '', ctx.fit ? max : RAW_MAX_UNFITTED), c.dim]];
    case 'invalid': {
      if (typeof r.raw === 'string') return [[wireText(r.raw, ctx.fit ? max : RAW_MAX_UNFITTED), c.red]];
      if (r.msg !== undefined) return [[wireText(r.msg, ctx.fit ? max : RAW_MAX_UNFITTED), c.red]];
      return [];
    }
    case 'batch':
      return batchText(r, ctx, max);
    case 'event':
      // mcp-tap's own words, each wire fragment in them capped: room beyond the terminal width is fine
      return eventText(r, ctx, Math.max(max, 200));
    default:
      break;
  }
  const method = typeof r.method === 'string' ? r.method : msgMethod(r.msg);
  const segs: Seg[] = [];
  if (method !== undefined) segs.push([wireText(method, Math.min(max, 60)), c.bold]);
  const target = r.target !== undefined ? r.target : r.kind === 'request' ? msgTarget(method, r.msg) : undefined;
  let used = segs[0]?.[0].length ?? 0;
  if (target !== undefined) {
    const t = wireText(target, Math.max(12, max - used - 1));
    // the space before the target is not underlined
    segs.push([' '], [t, c.underline]);
    used += t.length + 1;
  }
  const detail = notificationDetail(method, r.msg);
  if (detail) {
    const room = max - used - 1;
    if (room > 8) segs.push([` ${shorten(detail, room)}`, c.gray]);
  }
  if (method === undefined && segs.length === 0 && r.msg !== undefined && r.kind !== 'response' && r.kind !== 'error') {
    segs.push([wireText(r.msg, max), c.gray]);
  }
  return segs;
}

/** The method, from a record written before the analysis filled `method` (or by a newer writer). */
function msgMethod(msg: unknown): string | undefined {
  const m = msgField(msg, 'method');
  return typeof m === 'string' ? m : undefined;
}

function msgField(msg: unknown, key: string): unknown {
  const o = asObject(msg);
  return o ? o[key] : undefined;
}

/** tools/call → tool name, resources/read → uri, prompts/get → prompt name; from params when `target` is absent. */
function msgTarget(method: string | undefined, msg: unknown): unknown {
  const params = asObject(msgField(msg, 'params'));
  if (!params) return undefined;
  if (method === 'tools/call' || method === 'prompts/get') return typeof params.name === 'string' ? params.name : undefined;
  if (method === 'resources/read' || method === 'resources/subscribe' || method === 'resources/unsubscribe') {
    return typeof params.uri === 'string' ? params.uri : undefined;
  }
  return undefined;
}

/** A glance at well-known notification and handshake payloads (already escaped). */
function notificationDetail(method: string | undefined, msg: unknown): string | undefined {
  const params = asObject(msgField(msg, 'params'));
  const result = asObject(msgField(msg, 'result'));
  switch (method) {
    case 'notifications/progress': {
      if (!params) return undefined;
      const p = wireText(params.progress, 20);
      const total = params.total !== undefined ? `/${wireText(params.total, 20)}` : '';
      const message = typeof params.message === 'string' ? ` ${wireText(params.message, 80)}` : '';
      return `${p}${total}${message}`;
    }
    case 'notifications/message': {
      if (!params) return undefined;
      const level = params.level !== undefined ? wireText(params.level, 16) : '';
      const logger = typeof params.logger === 'string' ? ` [${wireText(params.logger, 40)}]` : '';
      const data = params.data !== undefined ? ` ${wireText(params.data, 200)}` : '';
      return `${level}${logger}${data}`;
    }
    case 'notifications/cancelled': {
      if (!params) return undefined;
      const req = params.requestId !== undefined ? `request ${wireId(params.requestId, 40)}` : '';
      const reason = typeof params.reason === 'string' ? ` ${wireText(params.reason, 120)}` : '';
      return `${req}${reason}`.trim() || undefined;
    }
    case 'notifications/resources/updated':
      return params && typeof params.uri === 'string' ? wireText(params.uri, 200) : undefined;
    case 'initialize': {
      const src = params ?? result;
      if (!src) return undefined;
      const info = asObject(src.clientInfo) ?? asObject(src.serverInfo);
      const v = typeof src.protocolVersion === 'string' ? wireText(src.protocolVersion, 20) : '';
      const who = info ? ` ${wireText(info.name ?? '?', 40)}${versionSuffix(info.version)}` : '';
      return `${v}${who}`.trim() || undefined;
    }
    default:
      return undefined;
  }
}

/** First text item of a tools/call result's content, for isError previews. */
function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const item of content) {
    const o = asObject(item);
    if (o && typeof o.text === 'string') return o.text;
  }
  return undefined;
}

function notesOf(r: LogRecord): Note[] {
  if (!Array.isArray(r.notes)) return [];
  const out: Note[] = [];
  for (const n of r.notes) {
    const o = asObject(n);
    if (o) out.push({ code: o.code as string, text: typeof o.text === 'string' ? o.text : wireText(o.text) });
  }
  return out;
}

function batchText(r: LogRecord, ctx: Ctx, max: number): Seg[] {
  const items = Array.isArray(r.items) ? (r.items as unknown[]) : [];
  const parts: string[] = [];
  for (const it of items) {
    const o = asObject(it) as BatchItem | undefined;
    if (!o) continue;
    parts.push(batchItemText(o));
  }
  const text = `[${items.length}] ${parts.join(', ')}`;
  return [[shorten(text, ctx.full ? max * 4 : max), ctx.c.bold]];
}

function eventText(r: LogRecord, ctx: Ctx, max: number): Seg[] {
  const { c } = ctx;
  const ev = typeof r.event === 'string' ? r.event : undefined;
  const t = (v: unknown, n = 80) => wireText(v, n);
  switch (ev) {
    case 'spawn':
      return [['server started', c.gray], [typeof r.serverPid === 'number' ? `, pid ${r.serverPid}` : '', c.gray]];
    case 'spawn-error':
      return [[`server could not be started: ${t(r.error, max)}`, c.red]];
    case 'lifecycle':
      return [[lifecycleText(r, max), c.gray]];
    case 'stdin-closed':
      return [['host closed stdin (client → server ended)', c.gray]];
    case 'stdout-closed':
      return [['server closed stdout (server → client ended)', c.gray]];
    case 'host-gone':
      return [[`host stopped reading mcp-tap's stdout${r.error !== undefined ? ` (${t(r.error, 60)})` : ''}`, c.yellow]];
    case 'signal':
      return [[`mcp-tap received ${t(r.signal, 20)}, forwarded to the server`, c.gray]];
    case 'kill':
      return [[`server did not exit in time: sent ${t(r.signal, 20)}${r.reason !== undefined ? ` (${t(r.reason, 80)})` : ''}`, c.yellow]];
    case 'exit': {
      const bad = (typeof r.code === 'number' && r.code !== 0) || typeof r.signal === 'string';
      return [[exitText(r.code, r.signal), bad ? c.red : c.gray]];
    }
    case 'gap': {
      const lost = typeof r.lost === 'number' ? r.lost : '?';
      const reason = r.reason !== undefined ? ` (${t(r.reason, 40)})` : '';
      const err = r.error !== undefined ? `: ${t(r.error, 120)}` : '';
      return [[`${lost} record(s) lost${reason}${err}`, c.red]];
    }
    case 'log-error':
      return [[`log write failed: ${t(r.error, 120)}${typeof r.lost === 'number' ? ` (${r.lost} lost)` : ''}`, c.red]];
    case 'http':
    case 'refused':
    case 'upstream-error':
    case 'exchange':
    case 'auth':
    case 'session-id':
      return httpEventText(r, ev, c, max);
    case 'sink-gap':
      return [[`${typeof r.lost === 'number' ? r.lost : '?'} lost by ${t(r.sink, 60)}${r.reason !== undefined ? ` (${t(r.reason, 40)})` : ''}; the log is complete`, c.yellow]];
    default: {
      const extra = extraFields(r);
      const name = ev !== undefined ? t(ev, 40) : 'event';
      const json = Object.keys(extra).length ? ` ${wireText(extra, Math.max(20, max - name.length - 1))}` : '';
      return [[name, c.gray], [json, c.gray]];
    }
  }
}

/** `exit code 0`, `killed by SIGTERM`, as the separators and exit events say it. */
export function exitText(code: unknown, signal: unknown): string {
  if (typeof signal === 'string' && signal) return `server killed by ${wireText(signal, 20)}`;
  if (typeof code === 'number') return `server exited with code ${code}`;
  return 'server exited';
}

/** ` 1.2.0` after a name; nothing for a missing or blank version (no stray spaces). */
function versionSuffix(v: unknown): string {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return '';
  return ` ${wireText(v, 20)}`;
}

function lifecycleText(r: LogRecord, max: number): string {
  const parts: string[] = [];
  const pv = r.protocolVersion;
  if (pv !== undefined) parts.push(`protocol ${wireText(pv, 30)}`);
  const offered = r.offeredVersion ?? r.offered;
  if (offered !== undefined && offered !== pv) parts.push(`offered ${wireText(offered, 30)}`);
  const who = (label: string, v: unknown) => {
    const o = asObject(v);
    if (!o) return;
    parts.push(`${label} ${wireText(o.name ?? '?', 40)}${versionSuffix(o.version)}`);
  };
  who('client', r.clientInfo);
  who('server', r.serverInfo);
  if (r.era !== undefined && r.era !== 'handshake') parts.push(wireText(r.era, 20));
  return shorten(parts.length ? parts.join(' · ') : 'lifecycle', max);
}

function rule(label: string, ctx: Ctx, style: (s: string) => string): string {
  const lead = '──── ';
  const room = ctx.width - lead.length - label.length - 1;
  return style(`${lead}${label} ${'─'.repeat(Math.max(4, Math.min(room, 200)))}`);
}

function startSeparator(r: LogRecord, ctx: Ctx): string {
  const parts: string[] = [formatDateTime(r.time) + formatClock(r.time).slice(8)];
  parts.push(`session ${wireText(r.session ?? '?', 40)}`);
  if (r.name !== undefined) parts.push(wireText(r.name, 60));
  if (typeof r.pid === 'number') parts.push(`mcp-tap pid ${r.pid}`);
  const cmd = r.command !== undefined ? wireText(r.command, 80) : '';
  const args = Array.isArray(r.args) ? r.args.map((a) => wireText(a, 60)).join(' ') : '';
  const command = `${cmd}${args ? ' ' + args : ''}`;
  if (command) parts.push(shorten(command, Math.max(60, ctx.width - parts.join('  ').length - 12)));
  let out = rule(parts.join('  '), ctx, ctx.c.boldCyan);
  const notes = notesOf(r);
  for (const n of notes) out += `\n${ctx.c.yellow(`  ⚠ ${wireText(n.text, 400)} [${wireText(n.code, 60)}]`)}`;
  if (ctx.full) {
    const body = renderBody(r, { indent: '  ' });
    if (body) out += `\n${ctx.c.dim(body)}`;
  }
  return out;
}

function endSeparator(r: LogRecord, ctx: Ctx, info: SessionInfo | undefined): string {
  const parts: string[] = [formatClock(r.time), `end of session ${wireText(r.session ?? '?', 40)}`];
  if (info?.name !== undefined) parts.push(wireText(info.name, 60));
  let bad = false;
  // the exit event seen earlier, else what the end record itself says
  const signal = info?.exitSignal ?? (typeof r.exitSignal === 'string' ? r.exitSignal : undefined);
  const code = info?.exitCode ?? (typeof r.exitCode === 'number' ? r.exitCode : undefined);
  if (signal) {
    parts.push(`killed by ${wireText(signal, 20)}`);
    bad = true;
  } else if (typeof code === 'number') {
    parts.push(`exit ${code}`);
    bad = code !== 0;
  }
  const pending = Array.isArray(r.pending) ? (r.pending as unknown[]) : [];
  if (pending.length) {
    const list = pending
      .slice(0, 5)
      .map((p) => {
        const o = asObject(p) ?? {};
        return `${wireText(o.method ?? '?', 40)} ${wireId(o.id, ID_MAX)}${typeof o.seq === 'number' ? ` #${o.seq}` : ''}`;
      })
      .join(', ');
    parts.push(`${pending.length} unanswered: ${list}${pending.length > 5 ? ', …' : ''}`);
  }
  const running = typeof r.openTaskCount === 'number' ? r.openTaskCount : 0;
  if (running > 0) parts.push(`${running} task${running === 1 ? '' : 's'} still running`);
  let out = rule(parts.join('  '), ctx, bad || pending.length ? ctx.c.boldYellow : ctx.c.boldCyan);
  for (const n of notesOf(r)) out += `\n${ctx.c.yellow(`  ⚠ ${wireText(n.text, 400)} [${wireText(n.code, 60)}]`)}`;
  if (ctx.full) {
    const body = renderBody(r, { indent: '  ' });
    if (body) out += `\n${ctx.c.dim(body)}`;
  }
  return out;
}
