/**
 * The message list's data: one compact JSON row per record, with its body (shortened past a size, and
 * past a budget for the whole page, so a session of any length stays a file a browser can open).
 * Pure. The page script documents the short keys where it reads them.
 */
import { isRefusedProbeAnswer } from '../protocol/probe.js';
import type { BatchItem, LogRecord } from '../log/record.js';
import { cutText, shortenJson } from '../transcript/shorten-body.js';
import { barKey, round3, type Bar } from './model.js';
import { escapeJsonForScript } from './safe-json.js';

export interface BodyLimits {
  /** A body longer than this (characters of compact JSON or text) is shortened. */
  maxBody: number;
  /** Once the bodies of the page add up to this many characters, later bodies are cut to `leanBody`. */
  budget: number;
  leanBody: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { maxBody: 64 * 1024, budget: 64 * 1024 * 1024, leanBody: 2048 };

/** Running total of body characters for one page. */
export interface BodyMeter {
  used: number;
  shortened: number;
}

const ENVELOPE = new Set(['v', 'time', 'session', 'seq', 'from', 'kind', 'event']);
const FROM: Record<string, string> = { client: 'c', server: 's', proxy: 'p' };

/** A record's one-letter flags (E isError, C cancelled, T truncated, P partial, I input required, R refused probe), shared with the live page's rows. */
export function flagsOf(r: LogRecord): string {
  let f = '';
  if (r.isError === true) f += 'E';
  if (r.cancelled === true) f += 'C';
  if (r.truncated === true) f += 'T';
  if (r.partial === true) f += 'P';
  if (r.inputRequired === true) f += 'I';
  if (isRefusedProbeAnswer(r, r.msg)) f += 'R';
  return f;
}

/** What an event record says beyond its envelope. */
function eventBody(r: LogRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(r)) if (!ENVELOPE.has(k)) out[k] = r[k];
  return out;
}

function encodeItems(r: LogRecord, outcomeOf: ReadonlyMap<string, Bar>): unknown[] {
  const items: BatchItem[] = Array.isArray(r.items) ? r.items : [];
  return items.map((it, i) => {
    const bar = it.kind === 'request' ? outcomeOf.get(barKey(r.seq, i)) : undefined;
    return bar ? { ...it, o: bar.outcome, ...(bar.answerSeq !== undefined ? { a: bar.answerSeq } : {}) } : it;
  });
}

/** The body part of a row: `"y":…` plus how to read it (`yt`: t = text, p = pretty text already shortened; `yb` = full size). */
function bodyJson(r: LogRecord, limits: BodyLimits, meter: BodyMeter): string {
  const max = meter.used >= limits.budget ? limits.leanBody : limits.maxBody;
  if (r.kind === 'event') {
    const json = JSON.stringify(eventBody(r)) ?? '{}';
    meter.used += json.length;
    return `"y":${json}`;
  }
  if (r.msg !== undefined) {
    const json = JSON.stringify(r.msg) ?? 'null';
    if (json.length <= max) {
      meter.used += json.length;
      return `"y":${json}`;
    }
    const short = shortenJson(r.msg, max);
    meter.used += short.text.length;
    meter.shortened++;
    return `"y":${JSON.stringify(short.text)},"yt":"p","yb":${short.fullChars}`;
  }
  if (typeof r.raw === 'string') {
    const cut = cutText(r.raw, max);
    meter.used += cut.text.length;
    if (cut.shortened) meter.shortened++;
    return `"y":${JSON.stringify(cut.text)},"yt":"t"${cut.shortened ? `,"yb":${cut.fullChars}` : ''}`;
  }
  return '"y":null';
}

/** One record → its row as JSON text, safe to put inside a script element. */
export function encodeRow(r: LogRecord, origin: number, outcomeOf: ReadonlyMap<string, Bar>, limits: BodyLimits, meter: BodyMeter): string {
  const row: Record<string, unknown> = {
    s: r.seq,
    t: round3((typeof r.time === 'number' && Number.isFinite(r.time) ? r.time : origin) - origin),
    f: FROM[r.from] ?? 'p',
    k: r.kind,
  };
  if (typeof r.method === 'string') row['m'] = r.method;
  if (typeof r.target === 'string') row['g'] = r.target;
  if (r.id !== undefined) row['i'] = r.id;
  if (typeof r.reqSeq === 'number') row['r'] = r.reqSeq;
  if (typeof r.ms === 'number') row['d'] = r.ms;
  if (typeof r.exchangeMs === 'number') row['xd'] = r.exchangeMs;
  if (typeof r.retryOf === 'number') row['ro'] = r.retryOf;
  if (typeof r.taskId === 'string') row['tk'] = r.taskId;
  if (typeof r.taskOf === 'number') row['to'] = r.taskOf;
  if (typeof r.taskStatus === 'string') row['ts'] = r.taskStatus;
  if (typeof r.taskMs === 'number') row['td'] = r.taskMs;
  const flags = flagsOf(r);
  if (flags) row['x'] = flags;
  if (typeof r.bytes === 'number') row['b'] = r.bytes;
  if (Array.isArray(r.notes) && r.notes.length > 0) row['n'] = r.notes;
  if (r.kind === 'event' && typeof r.event === 'string') row['e'] = r.event;
  if (r.kind === 'batch') row['it'] = encodeItems(r, outcomeOf);
  if (r.kind === 'request') {
    const bar = outcomeOf.get(barKey(r.seq));
    if (bar) {
      row['o'] = bar.outcome;
      if (bar.answerSeq !== undefined) row['a'] = bar.answerSeq;
      // a task call: its duration is its task's
      if (bar.task !== undefined && bar.outcome !== 'running' && bar.ms !== undefined) row['td'] = bar.ms;
    }
  }
  const head = JSON.stringify(row);
  return escapeJsonForScript(`${head.slice(0, -1)},${bodyJson(r, limits, meter)}}`);
}
