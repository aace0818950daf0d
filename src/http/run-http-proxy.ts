/**
 * Wires HTTP mode: a server on 127.0.0.1 that checks who is asking, relays every exchange to the
 * upstream (forward.ts) and lets exchange-tap.ts observe a copy into one record stream per MCP session,
 * all in one log. Resolves when a signal stops it.
 */
import { createServer, Agent as HttpAgent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { jsonShortener } from '../framing/json-shortener.js';
import { openSink, nullSink, type SinkOptions } from '../proxy/open-sink.js';
import type { RecordSink } from '../proxy/observer.js';
import { openTaps, type TapOptions } from '../proxy/open-taps.js';
import { MaskingSink } from '../proxy/masking-sink.js';
import { MaskingTap } from '../proxy/masking-tap.js';
import { EnvMasker } from '../log/env-mask.js';
import { envSecrets } from '../log/env-secrets.js';
import type { RecordTap } from '../log/record-tap.js';
import { TapError } from '../errors.js';
import { VERSION } from '../version.js';
import { AuthFlows } from './auth-flow.js';
import { EndpointPolicy } from './endpoint-policy.js';
import type { ExchangeLog } from './exchange-log.js';
import { observeExchange, type TapContext } from './exchange-tap.js';
import type { ObservedExchange } from './exchange-state.js';
import { errorText, forward, type Upstream } from './forward.js';
import { HttpTap, type SharedTaps } from './http-tap.js';
import { malformedReason, refuseReason } from './loopback.js';
import { maskQuery } from './mask.js';
import { SessionRouter } from './session-router.js';

/** The `http` subcommand's options, parsed. */
export interface HttpProxyOptions extends SinkOptions, Omit<TapOptions, 'name'> {
  upstream: URL;
  /** 0: any free port. */
  port: number;
  name: string;
  maxLogBytes: number;
  /** `--redact-env`: variables of mcp-tap's environment whose values are masked in the log whatever their names. */
  redactEnv?: string[];
}

/** The process edges, injectable for tests. */
export interface HttpProxyIO {
  warn: (message: string) => void;
}

/** A running HTTP tap. */
export interface HttpProxy {
  /** The URL to put in the host's config: the upstream's path on mcp-tap's origin. */
  url: string;
  port: number;
  close(): Promise<void>;
  /** Which paths it decodes as MCP, for the startup line. */
  describe(): string;
}

const newId = () => `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

/** How long the sinks beside the log may take to deliver at the end, before and after the last records. */
const TAP_FLUSH_MS = 1000;

/**
 * The log and the sinks beside it, masked as in stdio mode (secret values of the environment, and
 * `--redact-env`), plus what the wire shows: credentials, cookies and session ids seen in headers, and
 * secret query values of URLs, are masked wherever else they appear (a body that echoes a token).
 */
function openSinks(opts: HttpProxyOptions, taps: RecordTap[], warn: (m: string) => void): { sink: RecordSink; taps: RecordTap[]; masker: EnvMasker } {
  const file = opts.logPath !== null || taps.length > 0 ? openSink(opts, warn) : nullSink;
  const secrets = envSecrets(process.env, opts.redactEnv ?? [], (n) => warn(`--redact-env ${n}: the value is shorter than 8 characters and is not masked`));
  for (const n of opts.redactEnv ?? []) if (process.env[n] === undefined) warn(`--redact-env ${n}: no such variable in mcp-tap's environment`);
  const masker = new EnvMasker(secrets);
  return { sink: file === nullSink ? file : new MaskingSink(file, masker), taps: taps.map((t) => new MaskingTap(t, masker)), masker };
}

/** Listens and relays; rejects with PORT_IN_USE when the port is taken. */
export async function startHttpProxy(opts: HttpProxyOptions, io: HttpProxyIO): Promise<HttpProxy> {
  const opened = openSinks(opts, await openTaps(opts, io.warn), io.warn);
  const sink = opened.sink;
  const shared: SharedTaps = { taps: opened.taps, nextReport: 0 };
  const upstreamUrl = opts.upstream;
  const upstream: Upstream = {
    url: upstreamUrl,
    agent: upstreamUrl.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
  };
  const server: Server = createServer({ noDelay: true, requestTimeout: 0 });
  await listen(server, opts.port);
  const port = (server.address() as AddressInfo).port;
  const localOrigin = `http://127.0.0.1:${port}`;
  const url = localOrigin + upstreamUrl.pathname + upstreamUrl.search;
  const shownUpstream = maskQuery(upstreamUrl.href);

  const startFields = (run?: string) => ({
    name: opts.name,
    upstream: shownUpstream,
    listen: maskQuery(url),
    ...(run !== undefined ? { run } : {}),
    pid: process.pid,
    versions: { mcpTap: VERSION, node: process.versions.node, platform: process.platform, arch: process.arch },
    log: opts.logPath,
    maxLogBytes: opts.maxLogBytes,
  });
  const tapOpts = { maxLogBytes: opts.maxLogBytes, sink, warn: io.warn, shortener: jsonShortener, taps: shared };
  const run = new HttpTap({ id: newId(), ...tapOpts });
  run.event('start', startFields());
  const router = new SessionRouter(
    () => {
      const tap = new HttpTap({ id: newId(), ...tapOpts });
      tap.event('start', startFields(run.id));
      return tap;
    },
    (tap, reason) => {
      const ending = tap.finishInOrder({ reason }).then(() => void endings.delete(ending));
      endings.add(ending);
    },
  );
  const endings = new Set<Promise<void>>();
  let exchanges = 0;
  const auth = new AuthFlows();
  const policy = new EndpointPolicy(upstreamUrl.pathname);
  // exchanges still open: at shutdown their records (the cut) come before the sessions' end records
  const openExchanges = new Set<ExchangeLog>();
  let idle: (() => void) | null = null;
  const open = {
    add: (x: ExchangeLog) => void openExchanges.add(x),
    done: (x: ExchangeLog) => {
      openExchanges.delete(x);
      if (openExchanges.size === 0) idle?.();
    },
  };
  const ctx: TapContext = {
    router,
    run,
    policy,
    maxLogBytes: opts.maxLogBytes,
    shortener: jsonShortener,
    upstreamOrigin: upstreamUrl.origin,
    localOrigin,
    auth,
    as: {},
    nextExchange: () => ++exchanges,
    open,
    learn: (secrets) => {
      for (const s of secrets) opened.masker.learn(s.value, s.marker);
    },
  };

  let upstreamDown = false;
  let stopping = false;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const malformed = malformedReason(req.url, req.rawHeaders);
    const reason = malformed ?? refuseReason(req.headers.host, req.headers.origin);
    if (reason !== null) {
      const status = malformed !== null ? 400 : 403;
      run.event('refused', { http: { method: req.method ?? 'GET', path, status }, reason });
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`mcp-tap: refused: ${reason}\n`);
      req.resume();
      return;
    }
    let hooks: ObservedExchange | null = null;
    try {
      hooks = observeExchange(req, ctx);
    } catch (err) {
      io.warn(`analysis error (${err instanceof Error ? err.message : String(err)}); the relay goes on`);
    }
    forward(req, res, upstream, {
      ...hooks,
      onResponse: (r) => {
        upstreamDown = false;
        return hooks?.onResponse?.(r) ?? null;
      },
      onFailure: (err, headersSent) => {
        // at shutdown mcp-tap itself cuts what is still open: the exchange's record says cut, nothing failed
        if (stopping) return;
        const error = new TapError('UPSTREAM_UNREACHABLE', `upstream ${upstreamUrl.origin} ${headersSent ? 'broke off' : 'unreachable'} (${errorText(err)})`);
        try {
          hooks?.upstreamError(error.message, headersSent);
        } catch (e) {
          io.warn(`analysis error (${e instanceof Error ? e.message : String(e)}); the relay goes on`);
        }
        if (!upstreamDown) io.warn(error.message);
        upstreamDown = true;
        if (!headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`mcp-tap: ${error.message}\n`);
      },
    });
  });

  return {
    url,
    port,
    close: async () => {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      // the cut exchanges' records first (their observers run a few turns after the sockets close)
      if (openExchanges.size > 0) {
        await Promise.race([new Promise<void>((resolve) => (idle = resolve)), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      }
      upstream.agent.destroy();
      router.endAll('shutdown');
      // decoders still at work get a moment; the end records follow what they give
      await Promise.race([Promise.all([...endings]), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      // a sign-in that never got to its retry is told in the run's records
      const open = auth.takeOpen(run.clock());
      if (open !== null) run.event('auth', { ...open, incomplete: true });
      // sinks beside the log deliver what waits first, so their losses can still be counted in the log
      await Promise.all(shared.taps.map((t) => t.flush(TAP_FLUSH_MS).catch(() => {})));
      // the log's last write done and its path checked: a file removed late has its loss stated before the end
      await sink.settle?.(TAP_FLUSH_MS);
      run.finish({ reason: 'shutdown' });
      await Promise.all([Promise.resolve(sink.close()), ...shared.taps.map((t) => t.close(TAP_FLUSH_MS).catch(() => {}))]);
    },
    describe: () => policy.describe(),
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new TapError('PORT_IN_USE', `port ${port} on 127.0.0.1 is in use; pick another with --port`));
      else reject(new TapError('INTERNAL', `cannot listen on 127.0.0.1:${port} (${err.code ?? err.message})`));
    };
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Runs until SIGINT/SIGTERM/SIGHUP; prints the local URL on stderr. Exit status 0. */
export async function runHttpProxy(opts: HttpProxyOptions, io: HttpProxyIO): Promise<number> {
  const proxy = await startHttpProxy(opts, io);
  io.warn(`listening on ${proxy.url} → ${maskQuery(opts.upstream.href)}`);
  io.warn(proxy.describe());
  await new Promise<void>((resolve) => {
    const stop = () => {
      for (const s of SIGNALS) process.off(s, stop);
      resolve();
    };
    for (const s of SIGNALS) process.on(s, stop);
  });
  await proxy.close();
  return 0;
}
