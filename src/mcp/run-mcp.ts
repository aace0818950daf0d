/**
 * `mcp-tap mcp` over stdio: the server on stdin/stdout (nothing else writes to stdout), a watch of the
 * logs for new sessions (notifications/resources/list_changed), and an orderly end when the host closes
 * stdin (requests already received are answered first), on SIGINT/SIGTERM, or when stdout breaks.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RedactOptions } from '../transcript/redact.js';
import { LogSource, type Served } from './log-source.js';
import { Reader } from './reader.js';
import { createMcpTapServer } from './server.js';
import { watchSessions } from './session-watch.js';

export interface McpRunOptions {
  served: Served;
  maxTokens: number;
  redact: RedactOptions;
  /** Polling interval of the log watch (ms); fs.watch wakes it sooner where it can. */
  pollMs?: number;
}

export interface McpRunIo {
  stdin: Readable;
  stdout: Writable;
  warn: (message: string) => void;
  /** Stops the server (signals). */
  signal?: AbortSignal;
}

/** How long answers to requests already received may take once stdin has ended. */
const DRAIN_MS = 30_000;

/** Serves until stdin ends (and the requests received are answered), the signal aborts or stdout breaks. */
export async function runMcp(opts: McpRunOptions, io: McpRunIo): Promise<void> {
  const reader = new Reader(new LogSource(opts.served), opts.redact);
  const mcp = createMcpTapServer({ reader, maxTokens: opts.maxTokens }, io.warn);
  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const stop = new AbortController();
  let ended: () => void = () => {};
  const done = new Promise<void>((resolve) => (ended = resolve));
  io.signal?.addEventListener('abort', () => ended());
  io.stdout.on('error', () => ended()); // the host stopped reading: nobody to answer

  await mcp.connect(transport);
  // requests received and not yet answered: on stdin's end they are answered before the server stops
  const open = new Set<string | number>();
  let drained: (() => void) | null = null;
  const receive = transport.onmessage!;
  transport.onmessage = (m: JSONRPCMessage) => {
    if ('method' in m && 'id' in m) open.add(m.id);
    receive(m);
  };
  const send = transport.send.bind(transport);
  transport.send = async (m: JSONRPCMessage) => {
    await send(m);
    if (!('method' in m) && 'id' in m && m.id !== undefined) open.delete(m.id);
    if (open.size === 0) drained?.();
  };
  mcp.server.onclose = () => ended();
  io.stdin.once('end', () => {
    if (open.size === 0) return ended();
    drained = ended;
    setTimeout(ended, DRAIN_MS).unref();
  });

  void watchSessions({
    served: opts.served,
    known: async () => (await reader.sessions()).map((f) => f.summary.id),
    onNewSessions: () => mcp.sendResourceListChanged(),
    signal: stop.signal,
    warn: io.warn,
    ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}),
  }).catch((err: unknown) => io.warn(`cannot watch for new sessions: ${(err as Error).message}`));

  await done;
  stop.abort();
  await mcp.close().catch(() => {});
}
