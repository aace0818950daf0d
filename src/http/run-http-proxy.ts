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
import { openSink, type SinkOptions } from '../proxy/open-sink.js';
import type { RecordSink } from '../proxy/observer.js';
import { TapError } from '../errors.js';
import { VERSION } from '../version.js';
import { observeExchange, type TapContext } from './exchange-tap.js';
import { errorText, forward, type Upstream } from './forward.js';
import { HttpTap } from './http-tap.js';
import { refuseReason } from './loopback.js';
import { maskQuery } from './mask.js';
import { SessionRouter } from './session-router.js';

/** The `http` subcommand's options, parsed. */
export interface HttpProxyOptions extends SinkOptions {
  upstream: URL;
  /** 0: any free port. */
  port: number;
  name: string;
  maxLogBytes: number;
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
}

const newId = () => `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

/** Listens and relays; rejects with PORT_IN_USE when the port is taken. */
export async function startHttpProxy(opts: HttpProxyOptions, io: HttpProxyIO): Promise<HttpProxy> {
  const sink: RecordSink = openSink(opts, io.warn);
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
  const tapOpts = { maxLogBytes: opts.maxLogBytes, sink, warn: io.warn, shortener: jsonShortener };
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
  const ctx: TapContext = {
    router,
    run,
    mcpPath: upstreamUrl.pathname,
    maxLogBytes: opts.maxLogBytes,
    shortener: jsonShortener,
    upstreamOrigin: upstreamUrl.origin,
    localOrigin,
  };

  let upstreamDown = false;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const reason = refuseReason(req.headers.host, req.headers.origin);
    if (reason !== null) {
      run.event('refused', { http: { method: req.method ?? 'GET', path, status: 403 }, reason });
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(`mcp-tap: refused: ${reason}\n`);
      req.resume();
      return;
    }
    let hooks: ReturnType<typeof observeExchange> | null = null;
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
        const error = new TapError('UPSTREAM_UNREACHABLE', `upstream ${upstreamUrl.origin} ${headersSent ? 'broke off' : 'unreachable'} (${errorText(err)})`);
        const tap = hooks?.tap;
        if (tap !== undefined) {
          const time = tap.clock();
          // after what the exchange delivered before it broke (the copy's analysis runs a turn later)
          tap.step((done) => {
            tap.event('upstream-error', { http: { ...(hooks?.facts ?? { method: req.method ?? 'GET', path }), status: 502 }, error: error.message }, time);
            done();
          });
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
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      upstream.agent.destroy();
      router.endAll('shutdown');
      // decoders still at work get a moment; the end records follow what they give
      await Promise.race([Promise.all([...endings]), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      run.finish({ reason: 'shutdown' });
      await sink.close();
    },
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
