/**
 * The live UI's HTTP surface as one (Request) => Response function, so tests call it in-process and the
 * Node adapter (serve.ts) stays a few lines. Read-only: GET and HEAD only, and only the logs the watch
 * was given, by index. Every answer carries a strict CSP and no CORS header.
 */
import { basename } from 'node:path';
import type { RedactOptions } from '../transcript/redact.js';
import { checkRequest, cookieName } from './guard.js';
import type { BodyAnswer, LiveEvent } from './live-row.js';
import type { LensKind } from '../lens/lens.js';
import { findRecord, sessionRowLines } from './read-session.js';

/** What the handler needs of the log watch. */
export interface WatchView {
  readonly logs: readonly string[];
  snapshot(): LiveEvent;
  problemList(): readonly string[];
  on(listener: (ev: LiveEvent) => void): () => void;
}

export interface UiHandlerOptions {
  token: string;
  port: number;
  watch: WatchView;
  /** The page and the Content-Security-Policy that lets exactly its inline script and style run. */
  page: { html: string; csp: string };
  redact?: RedactOptions;
  /** The lenses whose notes rows and bodies carry (default: every lens, src/lens/lenses.ts). */
  lenses?: readonly LensKind[];
  /** Comment lines on the event stream keep proxies and browsers from giving up on it; default 15 s. */
  heartbeatMs?: number;
  /** Bytes an event stream may hold for a page that reads slower than rows arrive; default EVENTS_MAX_QUEUED. */
  maxQueuedBytes?: number;
  /**
   * Told of every load of the page that passes the guard, whatever its headers (a launch, the token in
   * the URL, the cookie): the token has reached a browser, so `ui --open`'s launch file can go.
   */
  onPageLoad?: () => void;
}

/**
 * What the event stream holds for one page at most: past it, rows are counted instead of queued, and the
 * page is told how many of each session it missed (a `skipped` event) once it reads again.
 */
export const EVENTS_MAX_QUEUED = 4 * 1024 * 1024;

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** The answer to a launch (guard.ts): a page of this origin that loads `/`, so that load is same-origin and carries the cookie. */
const HOP_PAGE = '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/"><title>mcp-tap live</title><a href="/">mcp-tap live</a>\n';

function headers(csp: string, type: string, extra: Record<string, string> = {}): Headers {
  return new Headers({
    'content-type': type,
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'cross-origin-resource-policy': 'same-origin',
    'x-frame-options': 'DENY',
    ...extra,
  });
}

function text(status: number, body: string): Response {
  return new Response(`${body}\n`, { status, headers: headers(API_CSP, 'text/plain; charset=utf-8') });
}

function json(value: unknown): Response {
  return new Response(JSON.stringify(value), { status: 200, headers: headers(API_CSP, 'application/json; charset=utf-8') });
}

/** A log index and session id from the query, when they name a log of the watch. */
function target(url: URL, watch: WatchView): { path: string; session: string } | null {
  const log = url.searchParams.get('log');
  const session = url.searchParams.get('session');
  if (log === null || !/^\d+$/.test(log) || session === null) return null;
  const path = watch.logs[Number(log)];
  return path === undefined ? null : { path, session };
}

function streamOf(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const it = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(enc.encode(next.value));
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel() {
      await it.return?.();
    },
  });
}

/**
 * The event stream: the snapshot, then every increment, as server-sent events. A page that reads slower
 * than rows arrive gets at most `maxQueued` bytes held for it; rows past that are counted per session and
 * announced in a `skipped` event before anything else once it reads again (never dropped silently).
 */
function events(watch: WatchView, heartbeatMs: number, maxQueued: number): Response {
  const enc = new TextEncoder();
  let stop = (): void => {};
  const skipped = new Map<string, { log: number; session: string; rows: number }>();
  let flushSkipped = (): void => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const put = (ev: LiveEvent) => controller.enqueue(enc.encode(`data: ${JSON.stringify(ev)}\n\n`));
        flushSkipped = () => {
          for (const s of skipped.values()) put({ type: 'skipped', ...s });
          skipped.clear();
        };
        const send = (ev: LiveEvent) => {
          if (ev.type === 'rows' && (controller.desiredSize ?? 0) < -maxQueued) {
            const key = `${ev.log}\u0000${ev.session}`;
            const s = skipped.get(key);
            if (s) s.rows += ev.rows.length;
            else skipped.set(key, { log: ev.log, session: ev.session, rows: ev.rows.length });
            return;
          }
          if (skipped.size > 0) flushSkipped();
          put(ev);
        };
        send(watch.snapshot());
        for (const p of watch.problemList()) send({ type: 'problem', text: p });
        const off = watch.on(send);
        const beat = setInterval(() => controller.enqueue(enc.encode(': beat\n\n')), heartbeatMs);
        beat.unref();
        stop = () => {
          off();
          clearInterval(beat);
        };
      },
      // the page read what was queued: tell it what it missed meanwhile, even if no row comes after
      pull() {
        if (skipped.size > 0) flushSkipped();
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
  return new Response(body, { status: 200, headers: headers(API_CSP, 'text/event-stream; charset=utf-8') });
}

/** Makes the handler. */
export function makeUiHandler(opts: UiHandlerOptions): (req: Request) => Promise<Response> {
  const heartbeat = opts.heartbeatMs ?? 15_000;
  // the token moves from the address bar into a cookie only this port's pages send
  const cookie = `${cookieName(opts.port)}=${opts.token}; Path=/; HttpOnly; SameSite=Strict`;
  return async (req) => {
    const verdict = checkRequest(req, opts);
    if (!verdict.ok) return text(403, `forbidden: ${verdict.why} (open the URL mcp-tap ui printed)`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'read-only: GET only');
    const url = new URL(req.url);
    // the token has been used, whichever way the browser asked: the launch file has done its work
    if (req.method === 'GET' && url.pathname === '/') opts.onPageLoad?.();
    if (verdict.via === 'query' && url.pathname === '/') return new Response(null, { status: 303, headers: headers(API_CSP, 'text/plain', { location: '/', 'set-cookie': cookie }) });
    // a redirect would keep the load cross-site (no SameSite=Strict cookie on it): a page of this origin moves on instead
    if (verdict.via === 'launch') {
      return new Response(HOP_PAGE, { status: 200, headers: headers(API_CSP, 'text/html; charset=utf-8', { 'set-cookie': cookie }) });
    }
    try {
      switch (url.pathname) {
        case '/':
          return new Response(opts.page.html, { status: 200, headers: headers(opts.page.csp, 'text/html; charset=utf-8') });
        case '/api/sessions':
          return json({ logs: opts.watch.logs.map((p) => basename(p)), ...opts.watch.snapshot(), problems: opts.watch.problemList() });
        case '/api/events':
          return events(opts.watch, heartbeat, opts.maxQueuedBytes ?? EVENTS_MAX_QUEUED);
        case '/api/rows': {
          const t = target(url, opts.watch);
          if (!t) return text(404, 'no such log');
          // the rows' times count from the origin the page has (its card's start), else the session's first record
          const origin = Number(url.searchParams.get('origin'));
          const rows = sessionRowLines(t.path, t.session, opts.redact, opts.lenses, url.searchParams.has('origin') && Number.isFinite(origin) ? origin : undefined);
          return new Response(streamOf(rows), { status: 200, headers: headers(API_CSP, 'application/x-ndjson; charset=utf-8') });
        }
        case '/api/body': {
          const t = target(url, opts.watch);
          const seq = Number(url.searchParams.get('seq'));
          if (!t || !Number.isInteger(seq)) return text(404, 'no such record');
          const reveal = url.searchParams.get('reveal') === '1';
          const record = await findRecord(t.path, t.session, seq, reveal, opts.redact, opts.lenses);
          if (record === undefined) return text(404, 'no such record');
          const answer: BodyAnswer = { redacted: !reveal, record };
          return json(answer);
        }
        default:
          return text(404, 'not found');
      }
    } catch (err) {
      return text(500, `could not read the log: ${(err as Error).message}`);
    }
  };
}
