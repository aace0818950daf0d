/**
 * The `exchange` record of one HTTP exchange: what a HAR entry needs that the message records do not
 * say — start time, the phases' times, status text, the headers (masked at capture, mask.ts), body
 * sizes, and why a body was not decoded. Written once, when the exchange is over (its messages before it).
 */
import type { HttpFacts, HttpTap } from './http-tap.js';
import { maskHeaders, maskQuery } from './mask.js';

/** ms between two clock readings, to the microsecond. */
const between = (a: number, b: number): number => Math.round((b - a) * 1000) / 1000;

/** Headers kept per side; a message with more is cut here (and says so). */
const MAX_HEADERS = 100;
/** A header value longer than this is cut (no header a host or an MCP server sends is near it). */
const MAX_VALUE = 4096;

function keptHeaders(raw: readonly string[]): { headers: Array<[string, string]>; cut: boolean } {
  const all = maskHeaders(raw.length > MAX_HEADERS * 2 ? raw.slice(0, MAX_HEADERS * 2) : raw);
  let cut = raw.length > MAX_HEADERS * 2;
  for (const h of all) {
    if (h[1].length > MAX_VALUE) {
      h[1] = `${h[1].slice(0, MAX_VALUE)}…`;
      cut = true;
    }
  }
  return { headers: all, cut };
}

/** One exchange's facts as they arrive; `write` turns them into the record. */
export class ExchangeLog {
  private readonly requestHeaders: Array<[string, string]>;
  private readonly query: string | undefined;
  private headersCut: boolean;
  private requestEnd: number | undefined;
  private head: number | undefined;
  private response: { statusText: string; headers: Array<[string, string]> } | undefined;
  requestBytes = 0;
  responseBytes = 0;
  private readonly reasons: string[] = [];
  private written = false;

  constructor(
    /** The exchange's number in the run: `http.x` on every record it carried. */
    readonly x: number,
    /** Clock reading when the request head arrived. */
    readonly started: number,
    url: string,
    private readonly httpVersion: string,
    rawHeaders: readonly string[],
    /** Told once the record is written (the run waits for open exchanges at shutdown). */
    private readonly onWritten?: (log: ExchangeLog) => void,
  ) {
    const q = url.indexOf('?');
    this.query = q < 0 ? undefined : maskQuery(url.slice(q));
    const kept = keptHeaders(rawHeaders);
    this.requestHeaders = kept.headers;
    this.headersCut = kept.cut;
  }

  requestEnded(at: number): void {
    this.requestEnd ??= at;
  }

  responded(at: number, statusText: string, rawHeaders: readonly string[]): void {
    this.head = at;
    const kept = keptHeaders(rawHeaders);
    this.response = { statusText, headers: kept.headers };
    if (kept.cut) this.headersCut = true;
  }

  /** A body (or part of one) passed without being decoded into the session: `not decoded: …`. */
  notDecoded(reason: string): void {
    const text = `not decoded: ${reason}`;
    if (!this.reasons.includes(text) && this.reasons.length < 4) this.reasons.push(text);
  }

  /** Whether a reason was given already. */
  get hasReasons(): boolean {
    return this.reasons.length > 0;
  }

  get hasResponse(): boolean {
    return this.response !== undefined;
  }

  get isWritten(): boolean {
    return this.written;
  }

  /** The record, once: at the end of the response, when either side broke off, or when the upstream failed. */
  write(tap: HttpTap, facts: HttpFacts, at: number, extra: { cut?: boolean; error?: string } = {}): void {
    if (this.written) return;
    this.written = true;
    const timing: Record<string, number> = {};
    if (this.requestEnd !== undefined) timing['request'] = between(this.started, this.requestEnd);
    if (this.head !== undefined) timing['head'] = between(this.started, this.head);
    timing['end'] = between(this.started, at);
    const fields: Record<string, unknown> = {
      http: facts,
      started: this.started,
      timing,
      httpVersion: this.httpVersion,
    };
    if (this.query !== undefined) fields['query'] = this.query;
    fields['request'] = { headers: this.requestHeaders, bytes: this.requestBytes };
    if (this.response !== undefined) fields['response'] = { statusText: this.response.statusText, headers: this.response.headers, bytes: this.responseBytes };
    if (this.headersCut) fields['headersCut'] = true;
    if (this.reasons.length > 0) fields['notDecoded'] = this.reasons.join('; ');
    if (extra.cut === true) fields['cut'] = true;
    if (extra.error !== undefined) fields['error'] = extra.error;
    tap.exchangeDone(fields, this.reasons.length > 0, at);
    this.onWritten?.(this);
  }
}
