/**
 * What the log sees of one HTTP exchange: finds its MCP session, feeds the request body, the JSON
 * response or each SSE event to it as messages with their `http` facts, and turns the transport's own
 * outcomes (202, 4xx, 5xx, DELETE, GET streams, resumption) into `http` events. Exchanges outside the
 * MCP endpoint (OAuth metadata, token endpoints) are logged by method, path and status only: their
 * bodies, which may hold tokens, never reach the log.
 */
import type { IncomingMessage } from 'node:http';
import type { ShortenerFactory } from '../framing/line-splitter.js';
import { BodyCapture } from './body-capture.js';
import { makeDecoder, type BodyDecoder } from './decode.js';
import { EndpointRewriter } from './endpoint-rewrite.js';
import type { ExchangeHooks, ResponseWatch } from './forward.js';
import type { HttpFacts, HttpTap } from './http-tap.js';
import { maskSessionId } from './mask.js';
import type { SessionRouter } from './session-router.js';
import { SseFrames } from './sse-frames.js';

/** What every exchange's observer shares: the router, the run's own records, the endpoint and limits. */
export interface TapContext {
  router: SessionRouter;
  /** Records of the mcp-tap run itself: exchanges outside any MCP session. */
  run: HttpTap;
  /** The upstream URL's path: the MCP endpoint (or the legacy SSE endpoint). */
  mcpPath: string;
  maxLogBytes: number;
  shortener?: ShortenerFactory;
  upstreamOrigin: string;
  localOrigin: string;
}

function header(msg: IncomingMessage, name: string): string | undefined {
  const v = msg.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** `kind` of a body by its Content-Type. */
function bodyKind(contentType: string | undefined): 'json' | 'sse' | 'other' {
  const ct = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (ct === 'text/event-stream') return 'sse';
  if (ct === 'application/json' || ct.endsWith('+json')) return 'json';
  return 'other';
}

/** The hooks that observe one exchange; `onFailure` is left to the caller, which also answers 502. */
export function observeExchange(req: IncomingMessage, ctx: TapContext): ExchangeHooks & { tap: HttpTap; facts: HttpFacts } {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const method = req.method ?? 'GET';
  const sid = header(req, 'mcp-session-id');
  const legacy = ctx.router.forEndpoint(url);
  const isMcp = legacy !== undefined || path === ctx.mcpPath;
  if (!isMcp) return outside(ctx.run, method, path);

  const tap = legacy ?? (sid !== undefined ? ctx.router.forSessionId(sid) : ctx.router.forConnection(req.socket));
  const facts: HttpFacts = { method, path };
  if (sid !== undefined) facts.sessionId = maskSessionId(sid);
  const lastEventId = header(req, 'last-event-id');

  let request: BodyDecoder | null = null;
  let endTime = 0;
  if (method === 'POST') {
    const capture = new BodyCapture(ctx.maxLogBytes, ctx.shortener);
    const post: HttpFacts = { ...facts, stream: 'post' };
    request = decoderOrNote(
      header(req, 'content-encoding'),
      (c) => capture.push(c),
      () => {
        if (capture.bytes > 0) tap.message('client', capture.finish(), post, endTime);
      },
      tap,
      post,
    );
  }

  return {
    tap,
    facts,
    onRequestChunk: (c) => {
      const d = request;
      if (d !== null) tap.step((done) => d.write(c, done));
    },
    onRequestEnd: () => {
      const d = request;
      endTime = tap.clock();
      if (d !== null) tap.step((done) => d.end(done));
    },
    onResponse: (res) => watchResponse(res, { ctx, tap, method, path, facts, sid, lastEventId }),
  };
}

interface ResponseContext {
  ctx: TapContext;
  tap: HttpTap;
  method: string;
  path: string;
  facts: HttpFacts;
  sid: string | undefined;
  lastEventId: string | undefined;
}

function watchResponse(res: IncomingMessage, rc: ResponseContext): ResponseWatch | null {
  const { ctx, tap, method } = rc;
  const status = res.statusCode ?? 0;
  // routing first and at once: the host's next request may carry the new session id
  const newSid = header(res, 'mcp-session-id');
  if (newSid !== undefined && newSid !== rc.sid) ctx.router.bind(newSid, tap);
  const stream = method === 'GET' ? 'get' : 'post';
  const facts: HttpFacts = { ...rc.facts, status };
  const shownSid = newSid ?? rc.sid;
  if (shownSid !== undefined) facts.sessionId = maskSessionId(shownSid);
  // 401/403 bodies are the auth layer's (OAuth error JSON), not JSON-RPC: the event with its challenge says it
  const kind = status === 401 || status === 403 ? 'other' : bodyKind(header(res, 'content-type'));
  const headTime = tap.clock();

  // the transport's own outcomes become events
  if (status === 202 || status >= 300 || method === 'GET' || method === 'DELETE') {
    const challenge = header(res, 'www-authenticate');
    tap.step((done) => {
      const fields: Record<string, unknown> = { http: method === 'GET' ? { ...facts, stream, ...(rc.lastEventId !== undefined ? { eventId: rc.lastEventId } : {}) } : facts };
      if (rc.lastEventId !== undefined) {
        const seq = tap.seqOfEvent(rc.lastEventId);
        if (seq !== undefined) fields['resumes'] = seq;
      }
      if ((status === 401 || status === 403) && challenge !== undefined) fields['challenge'] = challenge;
      if (status === 404 && rc.sid !== undefined) fields['reason'] = 'session-not-found';
      tap.event('http', fields, headTime);
      done();
    });
  }

  let endTime = headTime;
  let announced = false;
  const endOfExchange = (cut = false) => {
    // legacy HTTP+SSE: the session lives as long as the SSE stream that announced its endpoint
    if (announced) {
      tap.event('http', { http: { ...facts, stream }, closed: true, ...(cut ? { cut: true } : {}) }, endTime);
      ctx.router.end(tap, 'stream-closed');
    } else if (method === 'DELETE' && status >= 200 && status < 300) ctx.router.end(tap, 'deleted');
    else if (status === 404 && rc.sid !== undefined) ctx.router.end(tap, 'session-not-found');
    // refused before any session began (401 before sign-in, 400, …): the connection's next request starts afresh
    else if (status >= 400 && rc.sid === undefined && newSid === undefined && ctx.router.isConnectionSession(tap)) ctx.router.end(tap, 'rejected');
    else if (method === 'GET' && status === 200) tap.event('http', { http: { ...facts, stream }, closed: true, ...(cut ? { cut: true } : {}) }, endTime);
  };

  const watch: ResponseWatch = {};
  let decoder: BodyDecoder | null = null;
  let chunkTime = headTime;
  if (kind === 'json') {
    const capture = new BodyCapture(ctx.maxLogBytes, ctx.shortener);
    const msgFacts: HttpFacts = { ...facts, stream };
    decoder = decoderOrNote(
      header(res, 'content-encoding'),
      (c) => capture.push(c),
      () => {
        if (capture.bytes > 0) tap.message('server', capture.finish(), msgFacts, endTime);
        endOfExchange();
      },
      tap,
      msgFacts,
    );
  } else if (kind === 'sse') {
    const frames = new SseFrames(
      ctx.maxLogBytes,
      (ev) => {
        if (ev.type === 'endpoint') {
          const text = (ev.data.data ?? ev.data.head ?? Buffer.alloc(0)).toString('utf8');
          let endpoint: URL | null = null;
          try {
            endpoint = new URL(text, ctx.upstreamOrigin + rc.path);
          } catch {
            endpoint = null;
          }
          if (endpoint !== null) ctx.router.bindEndpoint(endpoint.pathname + endpoint.search, tap);
          announced = true;
          tap.event('http', { http: { ...facts, stream }, endpoint: endpoint?.pathname ?? null }, chunkTime);
          return;
        }
        const msgFacts: HttpFacts = { ...facts, stream };
        if (ev.id !== undefined) msgFacts.eventId = ev.id;
        // an event without data (a priming event) only marks a point to resume after
        if (ev.data.bytes === 0) tap.markEvent(msgFacts.eventId);
        else tap.message('server', ev.data, msgFacts, chunkTime);
      },
      ctx.shortener,
    );
    decoder = decoderOrNote(
      header(res, 'content-encoding'),
      (c) => frames.push(c),
      () => {
        frames.end();
        endOfExchange();
      },
      tap,
      { ...facts, stream },
    );
    if (method === 'GET' && header(res, 'content-encoding') === undefined) watch.rewrite = new EndpointRewriter(ctx.upstreamOrigin, ctx.localOrigin);
  }
  watch.onCut = () => {
    endTime = tap.clock();
    tap.step((done) => {
      endOfExchange(true);
      done();
    });
  };
  const d = decoder;
  if (d !== null) {
    watch.onChunk = (c) => {
      const t = tap.clock();
      tap.step((done) => {
        chunkTime = t;
        d.write(c, done);
      });
    };
    watch.onEnd = () => {
      endTime = tap.clock();
      tap.step((done) => d.end(done));
    };
  } else {
    watch.onEnd = () => {
      endTime = tap.clock();
      tap.step((done) => {
        endOfExchange();
        done();
      });
    };
  }
  return watch;
}

/** A decoder for the copy, or (unknown encoding) null after an event saying the body is not analysed. */
function decoderOrNote(
  encoding: string | undefined,
  onData: (c: Buffer) => void,
  onEnd: () => void,
  tap: HttpTap,
  facts: HttpFacts,
): BodyDecoder | null {
  const d = makeDecoder(encoding, onData, onEnd, (err) => tap.event('http', { http: facts, error: `the body could not be decoded for the log (${err.message})` }));
  if (d === null) tap.step((done) => {
    tap.event('http', { http: facts, error: `Content-Encoding ${JSON.stringify(encoding)} is not decoded; the body is relayed but not analysed` });
    done();
  });
  return d;
}

/** An exchange outside the MCP endpoint: method, path (no query) and status in the run's records; no bodies. */
function outside(run: HttpTap, method: string, path: string): ExchangeHooks & { tap: HttpTap; facts: HttpFacts } {
  const facts: HttpFacts = { method, path };
  return {
    tap: run,
    facts,
    onResponse: (res) => {
      const fields: Record<string, unknown> = { http: { ...facts, status: res.statusCode ?? 0 } };
      const challenge = header(res, 'www-authenticate');
      if (challenge !== undefined) fields['challenge'] = challenge;
      run.event('http', fields);
      return null;
    },
  };
}
