/**
 * The message list's data: one row per record (src/session-view/to-row.ts, the live UI's too) with its
 * body, shortened past a size and past a budget for the whole page, so a session of any length stays a
 * file a browser can open. Pure.
 */
import type { LogRecord } from '../log/record.js';
import { eventBody } from '../session-view/row.js';
import { toRow } from '../session-view/to-row.js';
import { cutText, shortenJson } from '../transcript/shorten-body.js';
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

/** One (redacted) record → its row with its body as JSON text, safe to put inside a script element. */
export function encodeRow(r: LogRecord, origin: number, limits: BodyLimits, meter: BodyMeter): string {
  const head = JSON.stringify(toRow(r, origin));
  return escapeJsonForScript(`${head.slice(0, -1)},${bodyJson(r, limits, meter)}}`);
}
