/**
 * `export --format har`: the HTTP exchanges of an HTTP-mode run as a HAR 1.2 document (one entry per
 * `exchange` record), for the HTTP tools people already use (browser devtools, Charles, Fiddler). Pure:
 * records in (already redacted by the caller), JSON text out, entry by entry in the order the
 * exchanges ended, so memory holds only the exchanges still open. Bodies come from the message records
 * that carry the exchange's number (`http.x`); an SSE response's content is its events as received,
 * with each event's time in `content._sseEvents` (docs/export.md). Headers are the log's, masked at
 * capture.
 */
import type { LogRecord } from '../log/record.js';

/** Body text kept per entry; past it an entry's events are counted, not kept. */
export const HAR_MAX_TEXT = 1024 * 1024;
/** Exchanges whose record has not come yet, held at once; past it the oldest is written as it stands. */
const MAX_OPEN = 64;

interface Part {
  time: number;
  seq: number;
  text: string;
  eventId?: string;
  event?: string;
}

interface Open {
  session: string;
  x: number;
  first: LogRecord;
  request: Part[];
  response: Part[];
  chars: number;
  omitted: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const iso = (ms: number): string => new Date(Number.isFinite(ms) ? ms : 0).toISOString();
const round = (n: number): number => Math.max(0, Math.round(n * 1000) / 1000);

function headerList(v: unknown): Array<{ name: string; value: string }> {
  if (!Array.isArray(v)) return [];
  const out: Array<{ name: string; value: string }> = [];
  for (const h of v) if (Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string') out.push({ name: h[0], value: h[1] });
  return out;
}

function headerValue(list: Array<{ name: string; value: string }>, name: string): string | undefined {
  return list.find((h) => h.name.toLowerCase() === name)?.value;
}

/** `?a=1&b` → [{name: 'a', value: '1'}, {name: 'b', value: ''}] (values as the log masked them). */
function queryList(query: unknown): Array<{ name: string; value: string }> {
  if (typeof query !== 'string' || query.length < 2) return [];
  return query
    .slice(1)
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? { name: p, value: '' } : { name: p.slice(0, eq), value: p.slice(eq + 1) };
    });
}

/** The message of a record as the wire text it stood for (the log keeps JSON whitespace as spaces). */
function messageText(r: LogRecord): string {
  if (r.msg !== undefined) return JSON.stringify(r.msg) ?? '';
  return typeof r.raw === 'string' ? r.raw : '';
}

/** HAR 1.2 `timings` from the exchange record's phase times: send until the request ended, wait until the head, receive until the end. */
function timingsOf(t: Obj): { send: number; wait: number; receive: number } {
  const end = typeof t['end'] === 'number' ? t['end'] : 0;
  const head = typeof t['head'] === 'number' ? t['head'] : end;
  const request = typeof t['request'] === 'number' ? Math.min(t['request'], head) : head;
  return { send: round(request), wait: round(head - request), receive: round(end - head) };
}

export interface HarOptions {
  creator: { name: string; version: string };
  /** The run's exports are redacted (a comment on the log says so). */
  redacted: boolean;
}

/** Builds the document: `head()`, then what each `push` returns, then `finish()`. */
export class HarBuilder {
  private readonly origins = new Map<string, string>();
  private readonly open = new Map<string, Open>();
  private entries = 0;

  constructor(private readonly o: HarOptions) {}

  head(): string {
    const comment = `mcp-tap HTTP mode; ${this.o.redacted ? 'redacted as export redacts' : 'NOT redacted'}; headers masked at capture (docs/export.md)`;
    return `{"log":{"version":"1.2","creator":${JSON.stringify(this.o.creator)},"comment":${JSON.stringify(comment)},"entries":[`;
  }

  /** The next record; the entries (JSON text, with their separators) it completed. */
  push(r: LogRecord): string[] {
    const out: string[] = [];
    if (r.kind === 'event' && r.event === 'start' && typeof r['upstream'] === 'string') {
      try {
        this.origins.set(r.session, new URL(r['upstream']).origin);
      } catch {
        // an upstream that is not a URL: entries keep their path alone
      }
      return out;
    }
    const h = r['http'];
    if (!isObj(h) || typeof h['x'] !== 'number') return out;
    const key = `${r.session}#${h['x']}`;
    if (r.kind === 'event' && r.event === 'exchange') {
      const o = this.open.get(key);
      this.open.delete(key);
      out.push(this.entry(r, o));
      return out;
    }
    let o = this.open.get(key);
    if (o === undefined) {
      if (this.open.size >= MAX_OPEN) {
        const [oldKey, oldest] = this.open.entries().next().value as [string, Open];
        this.open.delete(oldKey);
        out.push(this.entry(null, oldest));
      }
      o = { session: r.session, x: h['x'], first: r, request: [], response: [], chars: 0, omitted: 0 };
      this.open.set(key, o);
    }
    let part: Part | null = null;
    if (r.kind === 'event' && r.event === 'http' && typeof r['endpoint'] === 'string') part = { time: r.time, seq: r.seq, text: r['endpoint'], event: 'endpoint' };
    else if (r.kind !== 'event' && r.kind !== 'stderr') {
      part = { time: r.time, seq: r.seq, text: messageText(r) };
      if (typeof h['eventId'] === 'string') part.eventId = h['eventId'];
    }
    if (part === null) return out;
    if (o.chars + part.text.length > HAR_MAX_TEXT) {
      o.omitted++;
      return out;
    }
    o.chars += part.text.length;
    (r.from === 'client' ? o.request : o.response).push(part);
    return out;
  }

  /** Exchanges that never got their record (mcp-tap stopped first), then the document's end. */
  finish(): string[] {
    const out: string[] = [];
    for (const o of this.open.values()) out.push(this.entry(null, o));
    this.open.clear();
    out.push('\n]}}\n');
    return out;
  }

  /** One entry from its exchange record (null: only the messages are known). */
  private entry(x: LogRecord | null, o: Open | undefined): string {
    const src = x ?? o!.first;
    const session = src.session;
    const h = (src['http'] as Obj | undefined) ?? {};
    const method = typeof h['method'] === 'string' ? h['method'] : 'GET';
    const path = typeof h['path'] === 'string' ? h['path'] : '/';
    const started = x !== null && typeof x['started'] === 'number' ? x['started'] : (o?.request[0]?.time ?? o?.response[0]?.time ?? src.time);
    const timings = x !== null && isObj(x['timing']) ? timingsOf(x['timing']) : { send: 0, wait: 0, receive: round(src.time - started) };
    const req = x !== null && isObj(x['request']) ? x['request'] : {};
    const res = x !== null && isObj(x['response']) ? x['response'] : null;
    const reqHeaders = headerList(req['headers']);
    const resHeaders = res !== null ? headerList(res['headers']) : [];
    const query = x !== null ? x['query'] : undefined;
    const httpVersion = x !== null && typeof x['httpVersion'] === 'string' ? x['httpVersion'] : 'HTTP/1.1';
    const status = typeof h['status'] === 'number' ? h['status'] : 0;
    const reqType = headerValue(reqHeaders, 'content-type') ?? 'application/json';
    const resType = headerValue(resHeaders, 'content-type') ?? '';
    const request: Obj = {
      method,
      url: `${this.origins.get(session) ?? ''}${path}${typeof query === 'string' ? query : ''}`,
      httpVersion,
      cookies: [],
      headers: reqHeaders,
      queryString: queryList(query),
      headersSize: -1,
      bodySize: typeof req['bytes'] === 'number' ? req['bytes'] : -1,
    };
    if (o !== undefined && o.request.length > 0) request['postData'] = { mimeType: reqType, text: o.request.map((p) => p.text).join('\n') };
    else if (typeof req['bytes'] === 'number' && req['bytes'] > 0) request['postData'] = { mimeType: reqType, text: '', comment: 'not in the log (not decoded, or not MCP)' };
    const content: Obj = { size: res !== null && typeof res['bytes'] === 'number' ? res['bytes'] : 0, mimeType: resType };
    const parts = o?.response ?? [];
    if (resType.toLowerCase().startsWith('text/event-stream')) {
      content['text'] = parts.map((p) => `${p.event !== undefined ? `event: ${p.event}\n` : ''}${p.eventId !== undefined ? `id: ${p.eventId}\n` : ''}data: ${p.text}\n\n`).join('');
      content['_sseEvents'] = parts.map((p) => ({ time: iso(p.time), ms: round(p.time - started), seq: p.seq, ...(p.eventId !== undefined ? { id: p.eventId } : {}), ...(p.event !== undefined ? { event: p.event } : {}) }));
    } else if (parts.length > 0) content['text'] = parts.map((p) => p.text).join('\n');
    if (o !== undefined && o.omitted > 0) content['comment'] = `${o.omitted} more messages not kept here (past ${HAR_MAX_TEXT} characters of body text per entry)`;
    if (headerValue(resHeaders, 'content-encoding') !== undefined && typeof content['text'] === 'string') {
      // the text is the decoded body: its size, and what the encoding saved
      const decoded = Buffer.byteLength(content['text'] as string);
      const wire = content['size'] as number;
      content['size'] = decoded;
      if (decoded >= wire) content['compression'] = decoded - wire;
    }
    const statusText = res !== null && typeof res['statusText'] === 'string' ? res['statusText'] : x !== null && typeof x['error'] === 'string' ? `mcp-tap: ${x['error']}` : '';
    const response: Obj = {
      status,
      statusText,
      httpVersion,
      cookies: [],
      headers: resHeaders,
      content,
      redirectURL: headerValue(resHeaders, 'location') ?? '',
      headersSize: -1,
      bodySize: res !== null && typeof res['bytes'] === 'number' ? res['bytes'] : -1,
    };
    const mine: Obj = { session, x: typeof h['x'] === 'number' ? h['x'] : 0 };
    if (x === null) mine['incomplete'] = true;
    if (x !== null && x['cut'] === true) mine['cut'] = true;
    const entry: Obj = {
      startedDateTime: iso(started),
      time: round(timings.send + timings.wait + timings.receive),
      request,
      response,
      cache: {},
      timings,
      _mcpTap: mine,
    };
    if (x !== null && typeof x['notDecoded'] === 'string') entry['comment'] = x['notDecoded'];
    else if (x === null) entry['comment'] = 'the log ends before this exchange did: its messages only';
    return `${this.entries++ === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`;
  }
}
