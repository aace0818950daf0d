/**
 * The method column of a `tail` line (pure): method and target, a glance at well-known notifications
 * and handshakes, a batch's elements, raw text; events come from event-text.ts.
 */
import type { BatchItem, LogRecord } from '../log/record.js';
import { eventText } from './event-text.js';
import { asObject, shorten } from './format.js';
import type { LineCtx, Seg } from './line-style.js';
import { batchItemText, versionSuffix } from './record-parts.js';
import { wireId, wireText } from './wire-text.js';

/** Raw text (stderr, non-JSON lines) kept on a line when the output is not a terminal. */
const RAW_MAX_UNFITTED = 1000;

/** The method column: method, target, and a short summary of well-known notifications. */
export function mainText(r: LogRecord, ctx: LineCtx, max: number): Seg[] {
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
      return eventText(r, ctx.c, Math.max(max, 200));
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

/** A member of a message object (undefined for anything else). */
export function msgField(msg: unknown, key: string): unknown {
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
export function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const item of content) {
    const o = asObject(item);
    if (o && typeof o.text === 'string') return o.text;
  }
  return undefined;
}

function batchText(r: LogRecord, ctx: LineCtx, max: number): Seg[] {
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
