/**
 * The first thing proxy mode does once its arguments are read: catch signals, then start the server.
 * It is its own small module so the CLI can start the server before it loads the relay and the
 * analysis, and the host's server comes up while that code is still being read.
 */
import { spawnServer, type StartedServer } from './spawn-server.js';

/** The signals mcp-tap catches and forwards to the server. */
export const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** A server being started, with the signals that arrived before the relay was wired. */
export interface EarlyStart {
  childPromise: Promise<StartedServer>;
  /** Signals caught so far, forwarded once the relay is wired. */
  early: NodeJS.Signals[];
  onEarlySignal: (signal: NodeJS.Signals) => void;
  /** performance.now() at the spawn. */
  spawnAt: number;
}

/**
 * Catch signals from the moment the server exists: a signal's default action would kill mcp-tap and
 * orphan the server. Signals that arrive before the relay is wired are forwarded once it is.
 */
export function startServer(command: string, args: readonly string[], trace: (msg: string, fields?: Record<string, unknown>) => void): EarlyStart {
  const early: NodeJS.Signals[] = [];
  const onEarlySignal = (signal: NodeJS.Signals) => early.push(signal);
  for (const s of SIGNALS) process.on(s, onEarlySignal);
  const spawnAt = performance.now();
  trace('spawn', { command, args, cwd: process.cwd(), shell: false, detached: process.platform !== 'win32', buffer: false });
  const childPromise = spawnServer(command, args);
  // a failed spawn is awaited (and reported) by the relay once its code is loaded; until then it must
  // not count as an unhandled rejection
  childPromise.catch(() => {});
  return { childPromise, early, onEarlySignal, spawnAt };
}
