/**
 * Relays one HTTP exchange to the upstream: method, path, end-to-end headers and body streamed as they
 * arrive, then the response's status, headers and body streamed back (each SSE event flushed the moment
 * it arrives). Like the stdio pump, each chunk is delivered first and observed after; an observer that
 * throws is the caller's problem to contain, never the relay's.
 */
import type { IncomingMessage, ServerResponse, Agent, ClientRequest, RequestOptions } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline, Transform, type TransformCallback } from 'node:stream';
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
  /** A byte transform applied on the way to the host (the legacy endpoint rewrite). */
  rewrite?: Transform;
}

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

/** A pass-through that hands each chunk on, then to `observe`. */
function tee(observe: ((chunk: Buffer) => void) | undefined, end: (() => void) | undefined): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      this.push(chunk);
      done();
      try {
        observe?.(chunk);
      } catch {
        // the observer contains its own failures; this only keeps a bug there off the relay
      }
    },
    flush(done: TransformCallback) {
      done();
      try {
        end?.();
      } catch {
        // as above
      }
    },
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
  up.on('response', (upRes) => {
    let watch: ResponseWatch | null = null;
    try {
      watch = hooks.onResponse?.(upRes) ?? null;
    } catch {
      watch = null;
    }
    res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, endToEnd(upRes.rawHeaders));
    // headers go out now: an SSE stream's first event may be minutes away
    res.flushHeaders();
    const copy = tee(watch?.onChunk, watch?.onEnd);
    const done = (err: NodeJS.ErrnoException | null | undefined) => {
      if (!err) return;
      if (res.destroyed && !res.writableFinished) hooks.onAbort?.();
      else fail(err);
      res.destroy();
    };
    if (watch?.rewrite) pipeline(upRes, copy, watch.rewrite, res, done);
    else pipeline(upRes, copy, res, done);
  });
  up.on('error', (err) => {
    fail(err);
    if (res.headersSent) res.destroy();
  });
  pipeline(req, tee(hooks.onRequestChunk, hooks.onRequestEnd), up, (err) => {
    if (err && !failed && !res.headersSent) {
      // the host went away before its request was complete
      hooks.onAbort?.();
      up.destroy();
    }
  });
  res.on('close', () => {
    if (!res.writableFinished) up.destroy();
  });
}
