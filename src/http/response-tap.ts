/**
 * The response side of an MCP exchange as the log sees it: the JSON body or each SSE event as the
 * server's messages, the transport's own outcomes (202, 4xx, 5xx, DELETE, GET streams, resumption, a
 * changed session id, the end of a sign-in) as events, and the exchange record at its end.
 */
import type { IncomingMessage } from 'node:http';
import { BodyCapture } from './body-capture.js';
import type { BodyDecoder } from './decode.js';
import { isJsonRpcBody } from './endpoint-policy.js';
import { EndpointRewriter } from './endpoint-rewrite.js';
import { decoderOrNote, header, type ExchangeState } from './exchange-state.js';
import type { ResponseWatch } from './forward.js';
import type { HttpFacts } from './http-tap.js';
import { headerSecrets, maskSessionId, parseChallenge } from './mask.js';
import { SseFrames } from './sse-frames.js';

/** `kind` of a body by its Content-Type. */
function bodyKind(contentType: string | undefined): 'json' | 'sse' | 'other' {
  const ct = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (ct === 'text/event-stream') return 'sse';
  if (ct === 'application/json' || ct.endsWith('+json')) return 'json';
  return 'other';
}

/** The events a response head makes: its transport outcome, a finished sign-in, a changed session id. */
function headEvents(res: IncomingMessage, ex: ExchangeState, facts: HttpFacts, withCredentials: boolean, previousSid: string | undefined): Array<[string, Record<string, unknown>]> {
  const { ctx, method, tap } = ex;
  const status = res.statusCode ?? 0;
  const time = tap.clock();
  const out: Array<[string, Record<string, unknown>]> = [];
  const lastEventId = header(ex.req, 'last-event-id');
  if (status === 202 || status >= 300 || method === 'GET' || method === 'DELETE') {
    const fields: Record<string, unknown> = { http: method === 'GET' ? { ...facts, stream: 'get', ...(lastEventId !== undefined ? { eventId: lastEventId } : {}) } : facts };
    if (lastEventId !== undefined) {
      const seq = tap.seqOfEvent(lastEventId);
      if (seq !== undefined) fields['resumes'] = seq;
    }
    const challenge = header(res, 'www-authenticate');
    if ((status === 401 || status === 403) && challenge !== undefined) {
      fields['challenge'] = challenge;
      const parsed = parseChallenge(challenge);
      if (parsed !== null) fields['auth'] = parsed;
    }
    if (status === 404 && ex.sid !== undefined) fields['reason'] = 'session-not-found';
    if (status === 405 && method === 'GET') fields['reason'] = 'no-get-stream';
    out.push(['http', fields]);
  }
  // the sign-in chain: a retry with credentials ends it; a challenge starts (or joins) one
  const chain = ctx.auth.answered(time, status, ex.path, withCredentials);
  if (chain !== null) out.push(['auth', { ...chain }]);
  if (status === 401 || status === 403) {
    const challenge = header(res, 'www-authenticate');
    if (challenge !== undefined) ctx.auth.challenge(time, status, ex.path, parseChallenge(challenge)?.error);
  }
  // the session id: re-issued on a request that named another, or a fresh one after a session expired
  const newSid = header(res, 'mcp-session-id');
  if (newSid !== undefined && newSid !== ex.sid) {
    const before = ex.sid ?? previousSid;
    if (before !== undefined && before !== newSid) {
      out.push(['session-id', { http: facts, sessionId: maskSessionId(newSid), previous: maskSessionId(before), reason: 're-issued' }]);
    } else if (ex.sid === undefined) {
      const expired = ctx.router.takeExpired(time);
      if (expired !== null) out.push(['session-id', { http: facts, sessionId: maskSessionId(newSid), previous: maskSessionId(expired.sid), reason: 'reconnect', previousSession: expired.session }]);
    }
  }
  return out;
}

/** Observes one MCP response; `withCredentials`: the request carried an Authorization header. */
export function watchResponse(res: IncomingMessage, ex: ExchangeState, withCredentials: boolean): ResponseWatch {
  const { ctx, method, xlog } = ex;
  const tap = ex.tap;
  const status = res.statusCode ?? 0;
  const headTime = tap.clock();
  ctx.learn?.(headerSecrets(res.rawHeaders));
  xlog.responded(headTime, res.statusMessage ?? '', res.rawHeaders);
  // routing first and at once: the host's next request may carry the new session id
  const newSid = header(res, 'mcp-session-id');
  const previousSid = ctx.router.sessionIdOf(tap);
  if (newSid !== undefined && newSid !== ex.sid) ctx.router.bind(newSid, tap);
  const stream = method === 'GET' ? 'get' : 'post';
  const facts: HttpFacts = { ...ex.facts, status };
  const shownSid = newSid ?? ex.sid;
  if (shownSid !== undefined) facts.sessionId = maskSessionId(shownSid);
  ex.facts = facts;
  const contentType = header(res, 'content-type');
  // 401/403 bodies are the auth layer's (OAuth error JSON), not JSON-RPC: the event with its challenge says it
  const kind = status === 401 || status === 403 ? 'other' : bodyKind(contentType);
  const events = headEvents(res, ex, facts, withCredentials, previousSid);
  if (events.length > 0) {
    tap.step((done) => {
      for (const [name, fields] of events) tap.event(name as 'http', fields, headTime);
      done();
    });
  }

  let endTime = headTime;
  let announced = false;
  const endOfExchange = (cut = false) => {
    if (kind === 'other' && xlog.responseBytes > 0) {
      xlog.notDecoded(status === 401 || status === 403 ? `a ${status} body (the auth layer's, not JSON-RPC)` : `Content-Type ${contentType === undefined ? '(none)' : JSON.stringify(contentType)}`);
    }
    // legacy HTTP+SSE: the session lives as long as the SSE stream that announced its endpoint
    if (announced) {
      tap.event('http', { http: { ...facts, stream }, closed: true, ...(cut ? { cut: true } : {}) }, endTime);
      ctx.router.end(tap, 'stream-closed');
    } else if (method === 'DELETE' && status >= 200 && status < 300) ctx.router.end(tap, 'deleted');
    else if (status === 404 && ex.sid !== undefined) ctx.router.end(tap, 'session-not-found');
    // refused before any session began (401 before sign-in, 400, …): the connection's next request starts afresh
    else if (status >= 400 && ex.sid === undefined && newSid === undefined && ctx.router.isConnectionSession(tap)) ctx.router.end(tap, 'rejected');
    else if (method === 'GET' && status === 200) tap.event('http', { http: { ...facts, stream }, closed: true, ...(cut ? { cut: true } : {}) }, endTime);
    // last of the exchange's records (a session the lines above end writes its end record in a later step)
    xlog.write(tap, method === 'GET' ? { ...facts, stream } : facts, endTime, cut ? { cut: true } : {});
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
      (failed) => {
        if (capture.bytes > 0 && !failed) {
          const line = capture.finish();
          if (ex.strict && !isJsonRpcBody(line)) xlog.notDecoded('the response body is not JSON-RPC');
          else tap.message('server', line, msgFacts, endTime);
        }
        endOfExchange();
      },
      ex,
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
            endpoint = new URL(text, ctx.upstreamOrigin + ex.path);
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
        else if (ex.strict && !isJsonRpcBody(ev.data)) xlog.notDecoded('an SSE event that is not JSON-RPC');
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
      ex,
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
      xlog.responseBytes += c.length;
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
    watch.onChunk = (c) => {
      xlog.responseBytes += c.length;
    };
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
