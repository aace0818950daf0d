/**
 * What the log sees of one HTTP exchange: decides whether it is MCP (endpoint-policy.ts), finds its MCP
 * session, feeds the request body to it, hands the response to response-tap.ts, and writes the
 * exchange's `exchange` record at its end. Exchanges that are not MCP (OAuth metadata, registration,
 * token endpoints) are logged by method, path, status and masked headers only: their bodies, which may
 * hold tokens, never reach the log; the auth steps among them join the run's sign-in chain.
 */
import type { IncomingMessage } from 'node:http';
import type { RoutingHeaders } from '../protocol/routing-headers.js';
import { asEndpointsOf, authStepOf, grantTypeOf } from './auth-flow.js';
import { BodyCapture } from './body-capture.js';
import { isJsonRpcBody, isJsonType } from './endpoint-policy.js';
import { ExchangeLog } from './exchange-log.js';
import { decoderOrNote, header, type ExchangeState, type ObservedExchange, type TapContext } from './exchange-state.js';
import type { ResponseWatch } from './forward.js';
import type { HttpFacts, HttpTap } from './http-tap.js';
import { headerSecrets, maskSessionId, parseChallenge } from './mask.js';
import { watchResponse } from './response-tap.js';

export type { TapContext } from './exchange-state.js';

/** Form bodies of token requests are read this far, for `grant_type` only. */
const MAX_FORM = 8 * 1024;
/** Authorization-server metadata is read this far, for its endpoint paths only. */
const MAX_METADATA = 64 * 1024;

/** The hooks that observe one exchange. */
export function observeExchange(req: IncomingMessage, ctx: TapContext): ObservedExchange {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const method = req.method ?? 'GET';
  const sid = header(req, 'mcp-session-id');
  ctx.learn?.(headerSecrets(req.rawHeaders, url));
  const xlog = new ExchangeLog(ctx.nextExchange(), ctx.run.clock(), url, `HTTP/${req.httpVersion}`, req.rawHeaders, ctx.open?.done);
  ctx.open?.add(xlog);
  const legacy = ctx.router.forEndpoint(url);
  const route =
    legacy !== undefined
      ? 'mcp'
      : ctx.policy.route({
          method,
          path,
          accept: header(req, 'accept'),
          contentType: header(req, 'content-type'),
          contentEncoding: header(req, 'content-encoding'),
          sessionId: sid,
          protocolVersion: header(req, 'mcp-protocol-version'),
        });
  const facts: HttpFacts = { method, path };
  if (sid !== undefined) facts.sessionId = maskSessionId(sid);
  facts.x = xlog.x;
  const ex: ExchangeState = {
    ctx,
    req,
    method,
    path,
    sid,
    xlog,
    mode: route,
    tap: route === 'mcp' ? (legacy ?? sessionTap(ctx, req, sid)) : ctx.run,
    facts,
    strict: legacy === undefined && !ctx.policy.isConfigured(path),
  };
  const request = route === 'mcp' ? mcpRequest(ex) : route === 'probe' ? probeRequest(ex) : outsideRequest(ex);
  return {
    onRequestChunk: (c) => {
      xlog.requestBytes += c.length;
      request.chunk(c);
    },
    onRequestEnd: () => {
      xlog.requestEnded(ex.tap.clock());
      request.end();
    },
    onResponse: (res) => {
      // answered before its body was read through: it stays outside
      if (ex.mode === 'probe') ex.mode = 'outside';
      if (ex.mode === 'outside' && (header(res, 'content-type') ?? '').toLowerCase().startsWith('text/event-stream')) {
        // an SSE stream is MCP whatever path it is on (a legacy stream asked for without an SSE Accept)
        ex.mode = 'mcp';
        ex.tap = sessionTap(ctx, req, sid);
        ex.strict = false;
      }
      if (ex.mode === 'mcp') {
        const sent = request.authorization;
        return watchResponse(res, ex, sent);
      }
      return outsideResponse(res, ex, request.grant());
    },
    onAbort: () => {
      const tap = ex.tap;
      const time = tap.clock();
      tap.step((done) => {
        // the host left before any answer: the exchange ends here (with an answer, its end is the cut)
        if (!xlog.isWritten && !xlog.hasResponse) xlog.write(tap, ex.facts, time, { cut: true });
        done();
      });
    },
    upstreamError: (message, headersSent) => {
      const tap = ex.tap;
      const time = tap.clock();
      // after what the exchange delivered before it broke (the copy's analysis runs a turn later)
      tap.step((done) => {
        const status = headersSent ? (ex.facts.status ?? 502) : 502;
        tap.event('upstream-error', { http: { ...ex.facts, status }, error: message }, time);
        xlog.write(tap, { ...ex.facts, status }, time, { error: message, ...(headersSent ? { cut: true } : {}) });
        done();
      });
    },
  };
}

function sessionTap(ctx: TapContext, req: IncomingMessage, sid: string | undefined): HttpTap {
  return sid !== undefined ? ctx.router.forSessionId(sid) : ctx.router.forConnection(req.socket);
}

interface RequestSide {
  chunk(c: Buffer): void;
  end(): void;
  /** The request carried credentials (an Authorization header). */
  readonly authorization: boolean;
  /** A token request's grant type, once its form body was read. */
  grant(): string | undefined;
}

/**
 * The routing headers of a POST, as sent (each may be absent): the session holds a request to them when
 * the header or the body's `_meta` names 2026-07-28 or later (routing-headers.ts), so a body of that
 * revision sent without `MCP-Protocol-Version` is caught too.
 */
function routingOf(req: IncomingMessage): RoutingHeaders {
  const version = header(req, 'mcp-protocol-version');
  const out: RoutingHeaders = {};
  if (version !== undefined) out.protocolVersion = version;
  const method = header(req, 'mcp-method');
  const name = header(req, 'mcp-name');
  if (method !== undefined) out.method = method;
  if (name !== undefined) out.name = name;
  return out;
}

/** The client's message facts: the POST stream, and its traceparent header. */
function postFacts(ex: ExchangeState): HttpFacts {
  const post: HttpFacts = { ...ex.facts, stream: 'post' };
  const tp = header(ex.req, 'traceparent');
  if (tp !== undefined && tp.length <= 128) post.traceparent = tp;
  return post;
}

/** One whole request body to the session as the client's message; off the given path only when it is JSON-RPC. */
function deliver(ex: ExchangeState, capture: BodyCapture, time: number): void {
  if (capture.bytes === 0) return;
  const line = capture.finish();
  if (ex.strict && !isJsonRpcBody(line)) {
    ex.xlog.notDecoded('the request body is not JSON-RPC');
    return;
  }
  ex.tap.message('client', line, postFacts(ex), time, routingOf(ex.req));
}

/** An MCP request: a POST body is decoded (as sent, or gunzipped) into the session. */
function mcpRequest(ex: ExchangeState): RequestSide {
  const authorization = header(ex.req, 'authorization') !== undefined;
  const none: RequestSide = { chunk: () => {}, end: () => {}, authorization, grant: () => undefined };
  if (ex.method !== 'POST') return none;
  const tap = ex.tap;
  const capture = new BodyCapture(ex.ctx.maxLogBytes, ex.ctx.shortener);
  let endTime = 0;
  // a body that did not decode whole is not logged as a message (the http event says why)
  const delivered = (failed: boolean) => {
    if (!failed) deliver(ex, capture, endTime);
  };
  const decoder = decoderOrNote(header(ex.req, 'content-encoding'), (c) => capture.push(c), delivered, ex, { ...ex.facts, stream: 'post' });
  if (decoder === null) return none;
  return {
    authorization,
    grant: () => undefined,
    chunk: (c) => tap.step((done) => decoder.write(c, done)),
    end: () => {
      endTime = tap.clock();
      tap.step((done) => decoder.end(done));
    },
  };
}

/**
 * A JSON POST off the MCP endpoint that says nothing else about itself: read (bounded) as it passes, and
 * at its end MCP if it is JSON-RPC (then its session is found as for any MCP request), else outside.
 */
function probeRequest(ex: ExchangeState): RequestSide {
  const authorization = header(ex.req, 'authorization') !== undefined;
  const capture = new BodyCapture(ex.ctx.maxLogBytes, ex.ctx.shortener);
  return {
    authorization,
    grant: () => undefined,
    chunk: (c) => capture.push(c),
    end: () => {
      if (ex.mode !== 'probe') return;
      const time = ex.tap.clock();
      const line = capture.bytes > 0 ? capture.finish() : null;
      if (line === null || !isJsonRpcBody(line)) {
        ex.mode = 'outside';
        if (line !== null) ex.xlog.notDecoded('a JSON body that is not JSON-RPC, off the MCP endpoint');
        return;
      }
      ex.mode = 'mcp';
      ex.strict = false;
      ex.tap = sessionTap(ex.ctx, ex.req, ex.sid);
      const tap = ex.tap;
      const facts = postFacts(ex);
      const routing = routingOf(ex.req);
      tap.step((done) => {
        tap.message('client', line, facts, time, routing);
        done();
      });
    },
  };
}

/** A request outside MCP: never logged; a token request's form body is read for its grant type only. */
function outsideRequest(ex: ExchangeState): RequestSide {
  const authorization = header(ex.req, 'authorization') !== undefined;
  const step = authStepOf(ex.method, ex.path, ex.ctx.as);
  const form = step === 'token' && (header(ex.req, 'content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
  let text = '';
  let grant: string | undefined;
  return {
    authorization,
    grant: () => grant,
    chunk: (c) => {
      if (form && text.length < MAX_FORM) text += c.toString('latin1', 0, Math.min(c.length, MAX_FORM - text.length));
    },
    end: () => {
      if (form) grant = grantTypeOf(text);
      text = '';
    },
  };
}

/** The response to an exchange outside MCP: one `http` event at its head (with its auth step), the exchange record at its end. */
function outsideResponse(res: IncomingMessage, ex: ExchangeState, grant: string | undefined): ResponseWatch {
  const { ctx, xlog } = ex;
  const run = ex.tap;
  const status = res.statusCode ?? 0;
  const headTime = run.clock();
  ctx.learn?.(headerSecrets(res.rawHeaders));
  xlog.responded(headTime, res.statusMessage ?? '', res.rawHeaders);
  const step = authStepOf(ex.method, ex.path, ctx.as);
  const facts: HttpFacts = { ...ex.facts, status };
  ex.facts = facts;
  const fields: Record<string, unknown> = { http: facts };
  if (step !== null) fields['authStep'] = step;
  const g = grant;
  if (step === 'token' && g !== undefined) fields['grant'] = g;
  const challenge = header(res, 'www-authenticate');
  if (challenge !== undefined) {
    fields['challenge'] = challenge;
    const parsed = parseChallenge(challenge);
    if (parsed !== null) fields['auth'] = parsed;
  }
  if (step !== null) ctx.auth.step(headTime, step, status, ex.path, g);
  run.step((done) => {
    run.event('http', fields, headTime);
    done();
  });
  const metadata = step === 'as-metadata' && status === 200 && isJsonType(header(res, 'content-type')) && header(res, 'content-encoding') === undefined;
  const chunks: Buffer[] = [];
  let held = 0;
  const reason = step !== null ? `an OAuth ${step} exchange (bodies outside MCP are never logged)` : ex.path.startsWith('/.well-known/') ? 'a /.well-known/ document' : 'not an MCP request';
  let endTime = headTime;
  const finish = (cut: boolean) => {
    if (metadata && held > 0 && held <= MAX_METADATA) {
      try {
        Object.assign(ctx.as, asEndpointsOf(JSON.parse(Buffer.concat(chunks).toString('utf8')), ctx.upstreamOrigin));
      } catch {
        // metadata that is not JSON names no endpoints
      }
    }
    if ((xlog.requestBytes > 0 || xlog.responseBytes > 0) && !xlog.hasReasons) xlog.notDecoded(reason);
    run.step((done) => {
      xlog.write(run, facts, endTime, cut ? { cut: true } : {});
      done();
    });
  };
  return {
    onChunk: (c) => {
      xlog.responseBytes += c.length;
      if (metadata && held <= MAX_METADATA) {
        chunks.push(Buffer.from(c));
        held += c.length;
      }
    },
    onEnd: () => {
      endTime = run.clock();
      finish(false);
    },
    onCut: () => {
      endTime = run.clock();
      finish(true);
    },
  };
}
