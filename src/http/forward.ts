/**
 * Relays one HTTP exchange to the upstream: method, path, end-to-end headers and body streamed as they
 * arrive, then the response's status, headers and body streamed back (each SSE event written the moment
 * it arrives). Like the stdio pump, each chunk is delivered first and observed after; an observer that
 * throws is the caller's problem to contain, never the relay's.
 */
import type { IncomingMessage, ServerResponse, Agent, ClientRequest, RequestOptions } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable, Transform, Writable } from 'node:stream';
import { endToEnd } from './headers.js';

/** Where requests go. */
export interface Upstream {
  url: URL;
  agent: Agent;
}

/** What watches one response (all optional). */
export interface ResponseWatch {
  onChunk?(chunk: Buffer): void;
  onEnd?(): void;
  /** The body ended early: the upstream broke off or the host went away. */
  onCut?(): void;
  /** A byte transform applied on the way to the host (the legacy endpoint rewrite). */
  rewrite?: Transform;
}

/** Observers of one exchange; each is called after the bytes it sees were handed on. */
export interface ExchangeHooks {
  onRequestChunk?(chunk: Buffer): void;
  onRequestEnd?(): void;
  /** The upstream answered: status and headers are known, the body follows. */
  onResponse?(res: IncomingMessage): ResponseWatch | null;
  /** The exchange failed: the upstream could not be reached (then headersSent is false) or broke mid-body. */
  onFailure?(err: Error, headersSent: boolean): void;
  /** The host went away before the response was complete. */
  onAbort?(): void;
}

/**
 * One body, source → destination: each chunk written, then observed; the source paused while the
 * destination is full. (Plain listeners rather than stream.pipeline through a pass-through: no extra
 * stream and tick per chunk, which a loopback round trip feels.) Observers never throw into the relay.
 */
function relayBody(src: Readable, dest: Writable, onChunk: ((c: Buffer) => void) | undefined, onEnd: (() => void) | undefined, onError: (err: Error) => void): void {
  let waiting = false;
  const resume = () => {
    waiting = false;
    src.resume();
  };
  src.on('data', (chunk: Buffer) => {
    if (!dest.write(chunk) && !waiting) {
      waiting = true;
      src.pause();
      dest.once('drain', resume);
    }
    if (onChunk !== undefined) {
      try {
        onChunk(chunk);
      } catch {
        // the observer contains its own failures; this only keeps a bug there off the relay
      }
    }
  });
  let over = false;
  src.once('end', () => {
    over = true;
    dest.end();
    if (onEnd !== undefined) {
      try {
        onEnd();
      } catch {
        // as above
      }
    }
  });
  src.once('error', (err) => {
    if (over) return;
    over = true;
    onError(err);
  });
  // a source torn down without an error (its peer or ours destroyed it) is cut off all the same
  src.once('close', () => {
    if (over) return;
    over = true;
    onError(Object.assign(new Error('the stream was closed before its end'), { code: 'ECONNRESET' }));
  });
}

/** One-line text of a network error: `ECONNREFUSED 127.0.0.1:9`. */
export function errorText(err: Error): string {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e.code !== undefined) return e.address !== undefined ? `${e.code} ${e.address}${e.port !== undefined ? `:${e.port}` : ''}` : `${e.code}: ${e.message}`;
  return e.message;
}

/** Relays `req` to the upstream and the answer back into `res`. */
export function forward(req: IncomingMessage, res: ServerResponse, upstream: Upstream, hooks: ExchangeHooks = {}): void {
  const u = upstream.url;
  const options: RequestOptions = {
    protocol: u.protocol,
    hostname: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname,
    port: u.port === '' ? undefined : Number(u.port),
    method: req.method,
    path: req.url,
    headers: endToEnd(req.rawHeaders, u.host) as unknown as Record<string, string>,
    agent: upstream.agent,
  };
  const up: ClientRequest = u.protocol === 'https:' ? httpsRequest(options) : httpRequest(options);
  let failed = false;
  const fail = (err: Error) => {
    if (failed) return;
    failed = true;
    hooks.onFailure?.(err, res.headersSent);
  };
  let hostGone = false;
  up.on('response', (upRes) => {
    let watch: ResponseWatch | null = null;
    try {
      watch = hooks.onResponse?.(upRes) ?? null;
    } catch {
      watch = null;
    }
    res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, endToEnd(upRes.rawHeaders));
    // headers go out with the first body bytes, in one write; an SSE stream whose first event is not
    // already here gets them at once (the event may be minutes away, and the host waits on the headers)
    if ((upRes.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      const flush = setImmediate(() => {
        if (!res.headersSent && !res.destroyed) res.flushHeaders();
      });
      upRes.once('data', () => clearImmediate(flush));
      upRes.once('close', () => clearImmediate(flush));
    }
    let dest: Writable = res;
    if (watch?.rewrite) {
      const rewrite = watch.rewrite;
      rewrite.pipe(res);
      rewrite.on('error', () => res.destroy());
      dest = rewrite;
    }
    relayBody(upRes, dest, watch?.onChunk, watch?.onEnd, (err) => {
      // the upstream broke off mid-body (or the host left and the upstream side was torn down): the host
      // sees the stream cut, as it would directly
      if (!hostGone) fail(err);
      res.destroy();
      try {
        watch?.onCut?.();
      } catch {
        // the observer contains its own failures
      }
    });
  });
  up.on('error', (err) => {
    if (!hostGone) fail(err);
    if (res.headersSent) res.destroy();
  });
  relayBody(req, up, hooks.onRequestChunk, hooks.onRequestEnd, () => {
    // the host went away before its request was complete
    hostGone = true;
    hooks.onAbort?.();
    up.destroy();
  });
  res.on('close', () => {
    if (!res.writableFinished) {
      hostGone = true;
      hooks.onAbort?.();
      up.destroy();
    }
  });
}
