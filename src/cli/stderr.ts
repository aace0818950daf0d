/**
 * mcp-tap's own words. The human one-liners go to stderr, prefixed, exactly as always; stdout belongs to
 * the server in proxy mode. With --debug (or MCP_TAP_DEBUG=1) a pino logger also records them and the
 * decision trace (spawn, timings of each shutdown step, the log's queue) as JSON in a file. pino is
 * imported only then, so a plain proxy start does not pay for it.
 */
import type { Logger } from 'pino';
import { openDebugSink } from './debug-sink.js';

let logger: Logger | null = null;

/** One line on stderr (`mcp-tap: …`), and a `warn` record in the debug log when there is one. */
export function warn(message: string): void {
  logger?.warn(message);
  try {
    process.stderr.write(`mcp-tap: ${message}\n`);
  } catch {
    // stderr gone: nothing left to tell.
  }
}

/** A decision-trace record for the debug log; nothing at all when debugging is off (one null check). */
export function trace(msg: string, fields?: Record<string, unknown>): void {
  if (logger !== null) logger.debug(fields ?? {}, msg);
}

/** Whether the debug log is open. */
export function debugging(): boolean {
  return logger !== null;
}

/**
 * Opens the debug log (pino JSON, appended, written synchronously so nothing is lost at process.exit;
 * created readable by its owner only; debug-sink.ts: one that cannot be used is a warning, not a stop). The caller has made sure `path` is not our stdout (see
 * refuseStdout in src/cli/debug-options.ts). `mask` rewrites each line before it is written: the trace
 * holds the server's argv, which may carry its secrets.
 */
export async function openDebugLog(path: string, mask?: (line: string) => string): Promise<void> {
  // pino is CommonJS: bundled, its named export sits on the default one
  const dest = openDebugSink(path, warn);
  if (dest === null) return;
  const mod = await import('pino');
  const pino = mod.default ?? mod.pino;
  logger = pino({ name: 'mcp-tap', level: 'debug', base: { pid: process.pid }, ...(mask ? { hooks: { streamWrite: mask } } : {}) }, dest);
}

/** For tests: forget the logger. */
export function closeDebugLog(): void {
  logger = null;
}
