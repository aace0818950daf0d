/**
 * Wires one proxy session: spawn the server, two pumps and the stderr copy, the observer beside them,
 * and the shutdown rules. Resolves with the exit status mcp-tap should end with.
 */
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { constants as osConstants } from 'node:os';
import { SIGNALS, startServer, type EarlyStart } from './early-start.js';
import { pump } from './pump.js';
import { Shutdown } from './shutdown.js';
import { releaseOutput } from './spawn-server.js';
import { startWatchdog } from './watchdog.js';
import { stopTree, treeStopPlan, treeStopsSettled } from '../platform/process-tree.js';
import { envSecrets } from '../log/env-secrets.js';
import { VERSION } from '../version.js';
import { TapError } from '../errors.js';
import type { ShipTarget } from '../ship/ship-tap.js';
import { WorkerObserver, type RelayObserver } from './worker-observer.js';
import { analysedHere, inlineObserver } from './inline-analysis.js';
import { openLogFd } from './open-sink.js';
import { ANALYSIS_WORKER } from '../package-paths.js';
import { relayScavenger, sizeYoungGeneration } from './young-generation.js';
import { LineSafeWarn } from './line-safe-warn.js';

export interface ProxyOptions {
  command: string;
  args: string[];
  name: string;
  /** null: --no-log (relay only). */
  logPath: string | null;
  maxLogBytes: number;
  maxLogSize: number;
  maxLogFiles: number;
  graceMs: number;
  quiet: boolean;
  /** `--redact-env`: variables whose values are masked in the log whatever their names. */
  redactEnv?: string[];
  /** Live OTLP export: undefined off; null on, endpoint from OTEL_EXPORTER_OTLP_*; a string: the endpoint. */
  otlp?: string | null;
  /** Tool arguments and results on the spans (redacted). */
  otlpContent?: boolean;
  /** pino transports that get every record. */
  ship?: ShipTarget[];
  /** --debug: where the pino decision trace goes (opened by the CLI); null when off. */
  debugLog?: string | null;
  /** Why there is no log though none of --no-log was given (said once on stderr). */
  notLogged?: string;
}

/** The process edges, injectable for tests. */
export interface ProxyIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  warn: (message: string) => void;
  /** The debug trace (src/cli/stderr.ts); a no-op unless --debug. */
  trace?: (msg: string, fields?: Record<string, unknown>) => void;
}


/** 128 + signal number, as shells report a death by signal. */
export function signalExitCode(signal: NodeJS.Signals): number {
  const n = (osConstants.signals as Record<string, number>)[signal];
  return 128 + (n ?? 0);
}

/** Runs the proxy until the server is gone; never rejects for anything the server does. */
export async function runProxy(opts: ProxyOptions, io: ProxyIO, started?: EarlyStart): Promise<number> {
  const sessionId = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  // mcp-tap's warnings never cut a line of the server's stderr in two
  const stderrLines = new LineSafeWarn(io.warn);
  const warn = stderrLines.warn;
  const trace = io.trace ?? (() => {});
  // the CLI starts the server before it loads this module (startup); a caller that did not starts it here
  const { childPromise, early, onEarlySignal, spawnAt } = started ?? startServer(opts.command, opts.args, trace);

  let observer: RelayObserver | null = null;
  const tapOptions = { name: opts.name, otlp: opts.otlp, otlpContent: opts.otlpContent, ship: opts.ship };
  const analysed = opts.logPath !== null || opts.otlp !== undefined || (opts.ship?.length ?? 0) > 0;
  // the bare relay (--no-log) allocates next to nothing: its young generation stays at its smallest
  if (!analysed) sizeYoungGeneration(false);
  else {
    // the server inherits this environment: its secret values never reach the log, nor a sink beside it
    const secrets = envSecrets(process.env, opts.redactEnv ?? [], (n) => warn(`--redact-env ${n}: the value is shorter than 8 characters and is not masked`));
    for (const n of opts.redactEnv ?? []) if (process.env[n] === undefined) warn(`--redact-env ${n}: no such variable in the server's environment`);
    const log = { logPath: opts.logPath, maxLogSize: opts.maxLogSize, maxLogFiles: opts.maxLogFiles, quiet: opts.quiet };
    const fd = openLogFd(log, warn);
    const analysis = { sessionId, maxLogBytes: opts.maxLogBytes, log: { ...log, fd }, taps: tapOptions, secrets };
    // the log alone is cheapest on this thread; sinks beside it and masking go to the analysis worker
    const here = analysedHere(analysis);
    // the analysis allocates per message, where it runs: its young generation may grow (the worker sizes its own)
    sizeYoungGeneration(here);
    observer = here
      ? inlineObserver(analysis, warn)
      : new WorkerObserver(analysis, { workerPath: ANALYSIS_WORKER, warn, stderr: io.stderr, scavenge: relayScavenger() });
    observer.event('start', {
      name: opts.name,
      command: opts.command,
      args: opts.args,
      cwd: process.cwd(),
      pid: process.pid,
      versions: { mcpTap: VERSION, node: process.versions.node, platform: process.platform, arch: process.arch },
      envNames: Object.keys(process.env).sort(),
      log: opts.logPath,
      maxLogBytes: opts.maxLogBytes,
    });
  }

  let child;
  let end;
  try {
    ({ child, end } = await childPromise);
  } catch (err) {
    for (const s of SIGNALS) process.off(s, onEarlySignal);
    trace('spawn failed', { error: err instanceof Error ? err.message : String(err), ms: performance.now() - spawnAt });
    observer?.event('spawn-error', { error: err instanceof Error ? err.message : String(err) });
    await observer?.finish();
    throw err instanceof TapError ? err : new TapError('SPAWN_FAILED', String(err));
  }
  trace('spawned', { serverPid: child.pid, ms: performance.now() - spawnAt });
  observer?.event('spawn', { serverPid: child.pid });
  const watchdog = startWatchdog(child.pid ?? 0, opts.graceMs);
  // A bug in mcp-tap must not leave the server behind: stop it, say so, exit 70.
  process.once('uncaughtException', (err) => {
    warn(`internal error: ${err.message}; stopping the server (please report this)`);
    void stopTree(treeStopPlan(process.platform, child.pid, 'SIGTERM'), child);
    // the watchdog is left standing: when mcp-tap is gone it sends SIGKILL to a server that ignored SIGTERM;
    // a Windows stop (no watchdog there) is seen through first, bounded, or exiting would cut it short
    void treeStopsSettled().finally(() => process.exit(70));
  });

  return new Promise<number>((resolve) => {
    const shutdown = new Shutdown(child, {
      graceMs: opts.graceMs,
      warn,
      trace,
      onKill: (signal, reason) => observer?.event('kill', { signal, reason }),
      onDone: ({ code, signal, forced }) => {
        // from here on a signal means "stop waiting": the log and stdout flushes are bounded anyway
        for (const s of SIGNALS) {
          process.off(s, onSignal);
          process.once(s, () => process.exit(code ?? (signal ? signalExitCode(signal) : 1)));
        }
        // pipes abandoned: what the server left in its group got SIGTERM and may ignore it; the watchdog,
        // left standing, sends SIGKILL to the group after the grace period once mcp-tap is gone
        if (!forced) watchdog?.standDown();
        trace('done', { code, signal, forced, msSinceSpawn: performance.now() - spawnAt });
        const status = code ?? (signal ? signalExitCode(signal) : 1);
        void Promise.resolve(observer?.finish({ exitCode: code, exitSignal: signal, forced })).then((logQueue) => {
          if (observer !== null) trace('log finished', { logQueue: logQueue ?? null, msSinceSpawn: performance.now() - spawnAt });
          resolve(status);
        });
      },
      onExit: (code, signal) => observer?.event('exit', { code, signal }),
    }, end);

    const onSignal = (signal: NodeJS.Signals) => {
      trace('signal received', { signal });
      observer?.event('signal', { signal });
      shutdown.forwardSignal(signal);
    };
    for (const s of SIGNALS) {
      process.on(s, onSignal);
      process.off(s, onEarlySignal);
    }
    for (const s of early) onSignal(s);

    // the bare relay (--no-log) allocates next to nothing on the heap: its dead chunks, whose bytes live
    // outside it, are collected every 4 MiB relayed instead of waiting for V8's external-memory limit
    const relayed = observer === null ? relayScavenger() : () => {};
    // host → server
    const fromHost = pump(io.stdin, child.stdin, {
      onChunk: (c) => (observer !== null ? observer.fromClient(c) : relayed(c.length)),
      onEnd: () => {
        observer?.endOf('client');
        observer?.event('stdin-closed');
        shutdown.hostClosedStdin();
      },
      onDestError: () => {
        // the server closed its stdin or died; what the host still sends is observed, not delivered
      },
    });
    // server → host
    releaseOutput(child);
    const fromServer = pump(child.stdout, io.stdout, {
      onChunk: (c) => (observer !== null ? observer.fromServer(c) : relayed(c.length)),
      onEnd: () => {
        observer?.endOf('server');
        observer?.event('stdout-closed');
      },
      onDestError: (err) => {
        observer?.event('host-gone', { error: err.code ?? String(err) });
        shutdown.hostGone();
      },
    });
    // server stderr → our stderr, unchanged, and into the log
    pump(child.stderr, io.stderr, {
      onChunk: (c) => {
        stderrLines.relayed(c);
        if (observer !== null) observer.fromStderr(c);
        else relayed(c.length);
      },
      onEnd: () => {
        stderrLines.ended();
        observer?.endOf('stderr');
      },
      onDestError: () => {},
      endDest: false,
    });
    // the analysis far behind paces the protocol streams until it caught up (stderr is never slowed)
    if (observer instanceof WorkerObserver) {
      observer.pressure = (on) => {
        fromHost.hold(on);
        fromServer.hold(on);
      };
    }
  });
}
