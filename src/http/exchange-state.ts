/**
 * The state one HTTP exchange's observers share (exchange-tap.ts for the request, response-tap.ts for
 * the response): the run's context, where the exchange's records go, and the decoder that says so when
 * a body cannot be decoded.
 */
import type { IncomingMessage } from 'node:http';
import type { ShortenerFactory } from '../framing/line-splitter.js';
import type { AsEndpoints, AuthFlows } from './auth-flow.js';
import { makeDecoder, type BodyDecoder } from './decode.js';
import type { EndpointPolicy } from './endpoint-policy.js';
import type { ExchangeLog } from './exchange-log.js';
import type { ExchangeHooks } from './forward.js';
import type { HttpFacts, HttpTap } from './http-tap.js';
import type { SessionRouter } from './session-router.js';

/** What every exchange's observer shares: the router, the run's own records, the endpoint and limits. */
export interface TapContext {
  router: SessionRouter;
  /** Records of the mcp-tap run itself: exchanges outside any MCP session. */
  run: HttpTap;
  policy: EndpointPolicy;
  maxLogBytes: number;
  shortener?: ShortenerFactory;
  upstreamOrigin: string;
  localOrigin: string;
  /** The run's sign-in chain. */
  auth: AuthFlows;
  /** The authorization server's endpoint paths, once its metadata passed. */
  as: AsEndpoints;
  /** The next exchange number (`http.x`). */
  nextExchange: () => number;
  /** Exchanges whose record is not written yet: added when one begins, told when it is written. */
  open?: { add(log: ExchangeLog): void; done(log: ExchangeLog): void };
  /** Secret values of headers and URLs (credentials, cookies, session ids, query secrets): masked wherever else they show up. */
  learn?: (secrets: Array<{ value: string; marker: string }>) => void;
}

/** The hooks of one exchange, plus what the caller reports when the upstream fails (it answers 502 itself). */
export interface ObservedExchange extends ExchangeHooks {
  upstreamError(message: string, headersSent: boolean): void;
}

export function header(msg: IncomingMessage, name: string): string | undefined {
  const v = msg.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** One exchange's state: where its records go, and what it has seen. */
export interface ExchangeState {
  ctx: TapContext;
  req: IncomingMessage;
  method: string;
  path: string;
  sid: string | undefined;
  xlog: ExchangeLog;
  /** `mcp`: a session's exchange; `outside`: the run's; `probe`: undecided until the body is read. */
  mode: 'mcp' | 'outside' | 'probe';
  tap: HttpTap;
  facts: HttpFacts;
  /** Whether a body off the given path must prove to be JSON-RPC before it is logged as a message. */
  strict: boolean;
}

/**
 * A decoder for the copy, or (unknown encoding) null after saying the body is not analysed. `onEnd` runs
 * once at the body's end also when decoding failed (`failed`: what was decoded is not the whole body),
 * so the exchange still gets its record.
 */
export function decoderOrNote(
  encoding: string | undefined,
  onData: (c: Buffer) => void,
  onEnd: (failed: boolean) => void,
  ex: ExchangeState,
  facts: HttpFacts,
): BodyDecoder | null {
  const tap = ex.tap;
  let ended = false;
  let failed = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd(failed);
  };
  const d = makeDecoder(encoding, onData, end, (err) => {
    failed = true;
    ex.xlog.notDecoded(`the ${String(encoding)} body could not be decoded (${err.message})`);
    tap.event('http', { http: facts, error: `the body could not be decoded for the log (${err.message})` });
  });
  if (d === null) {
    ex.xlog.notDecoded(`Content-Encoding ${JSON.stringify(encoding)}`);
    tap.step((done) => {
      tap.event('http', { http: facts, error: `Content-Encoding ${JSON.stringify(encoding)} is not decoded; the body is relayed but not analysed` });
      done();
    });
    return null;
  }
  return {
    write: (chunk, done) => d.write(chunk, done),
    end: (done) =>
      d.end(() => {
        end();
        done();
      }),
  };
}

