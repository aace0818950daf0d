/**
 * The I/O edge of `check --run`: starts the server through mcp-tap (so the session lands in a log) and
 * drives a standard session with the official SDK client — initialize, the listings the server
 * declares, ping, and only the tool calls asked for. Every step has a deadline: a server that never
 * answers or crashes yields a result, never a hang. Judging is left to the log.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ExecaStdioTransport } from '../client/execa-stdio-transport.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonRpcId } from '../log/record.js';
import { describeClientError } from './client-error.js';

/** One `--call`. */
export interface ToolCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** What to start and how to drive it. */
export interface RunSessionOptions {
  /** bin/mcp-tap.js of this package. */
  cliPath: string;
  command: string;
  args: string[];
  logPath: string;
  name: string;
  calls: ToolCall[];
  /** Deadline of each step (initialize, each request). */
  timeoutMs: number;
  clientVersion: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** What the client side saw (the log has the rest). */
export interface RunSessionResult {
  /** pid of the mcp-tap process (its start event carries it). */
  tapPid?: number;
  initialized: boolean;
  /** The step that got no answer in time; the session was ended there. */
  timedOut?: { method: string; target?: string };
  /** Requests that failed on the client side after being sent (server errors and SDK validation alike). */
  failures: Array<{ id: JsonRpcId; method: string; target?: string; message: string }>;
  /** Steps the SDK client refused before sending anything (e.g. a tool that requires task-based execution). */
  notSent: Array<{ method: string; target?: string; message: string }>;
  /** The connection closed before the session was done (the server or mcp-tap exited). */
  closedEarly: boolean;
  /** The last lines mcp-tap (and the server through it) wrote to stderr. */
  stderr: string[];
}

const STDERR_LINES = 20;
const MAX_PAGES = 20;
/** Longer than any step's own deadline, so the SDK never times out (and cancels) first. */
const SDK_TIMEOUT_MS = 2 ** 31 - 1;

/** Wraps the stdio transport to learn the id of each request the client actually sent. */
class SentRequests implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sent = 0;
  last?: { id: JsonRpcId; method: string };
  pid?: number;

  constructor(private readonly inner: ExecaStdioTransport) {}

  start(): Promise<void> {
    this.inner.onmessage = (m) => this.onmessage?.(m);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    const started = this.inner.start();
    this.pid = this.inner.pid ?? undefined;
    return started;
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if ('method' in message && 'id' in message) {
      this.sent++;
      this.last = { id: message.id as JsonRpcId, method: message.method };
    }
    await this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

class Stop extends Error {}

/** Runs the session; resolves after mcp-tap has exited (so its log is complete). */
export async function runSession(o: RunSessionOptions): Promise<RunSessionResult> {
  const stdio = new ExecaStdioTransport({
    command: process.execPath,
    args: [o.cliPath, '--log', o.logPath, '--name', o.name, '--quiet', '--grace', '1500', '--', o.command, ...o.args],
    env: (o.env ?? process.env) as Record<string, string>,
    stderr: 'pipe',
    ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
  });
  const result: RunSessionResult = { initialized: false, failures: [], notSent: [], closedEarly: false, stderr: [] };
  let partial = '';
  stdio.stderr?.on('data', (d: Buffer) => {
    const lines = (partial + d.toString('utf8')).split('\n');
    partial = lines.pop()!.slice(-4096);
    result.stderr.push(...lines.map((l) => l.slice(0, 4096)));
    if (result.stderr.length > STDERR_LINES) result.stderr.splice(0, result.stderr.length - STDERR_LINES);
  });
  const transport = new SentRequests(stdio);
  const client = new Client({ name: 'mcp-tap-check', version: o.clientVersion }, { capabilities: {} });
  let closed = false;
  const whenClosed = new Promise<'closed'>((resolve) => {
    client.onclose = () => {
      closed = true;
      resolve('closed');
    };
  });
  client.onerror = () => {}; // lines that are not JSON etc.: the log has them

  /** One step with its deadline; a failed request is noted and the session goes on. */
  async function step<T>(method: string, target: string | undefined, fn: () => Promise<T>): Promise<T | undefined> {
    if (closed) throw new Stop();
    const mark = transport.sent;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), o.timeoutMs);
    });
    try {
      const r = await Promise.race([fn(), timeout, whenClosed]);
      if (r === 'timeout') {
        result.timedOut = target !== undefined ? { method, target } : { method };
        throw new Stop();
      }
      if (r === 'closed') throw new Stop();
      return r as T;
    } catch (err) {
      if (err instanceof Stop || closed) throw new Stop();
      const message = describeClientError(err instanceof Error ? err.message : String(err));
      const what = target !== undefined ? { method, target, message } : { method, message };
      if (transport.sent > mark && transport.last) result.failures.push({ id: transport.last.id, ...what });
      else result.notSent.push(what);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  async function list(method: string, fn: (cursor?: string) => Promise<{ nextCursor?: string | undefined }>): Promise<void> {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await step(method, undefined, () => fn(cursor));
      cursor = r?.nextCursor;
      if (!cursor) return;
    }
  }

  try {
    await step('initialize', undefined, async () => {
      const connecting = client.connect(transport, { timeout: SDK_TIMEOUT_MS });
      result.tapPid = transport.pid;
      await connecting;
      result.initialized = true;
    });
    if (!result.initialized) throw new Stop();
    const caps = client.getServerCapabilities() ?? {};
    const opts = { timeout: SDK_TIMEOUT_MS };
    if (caps.tools) await list('tools/list', (cursor) => client.listTools(cursor ? { cursor } : undefined, opts));
    if (caps.resources) await list('resources/list', (cursor) => client.listResources(cursor ? { cursor } : undefined, opts));
    if (caps.prompts) await list('prompts/list', (cursor) => client.listPrompts(cursor ? { cursor } : undefined, opts));
    await step('ping', undefined, () => client.ping(opts));
    for (const c of o.calls) {
      await step('tools/call', c.tool, () => client.callTool({ name: c.tool, arguments: c.arguments }, undefined, opts));
    }
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  result.closedEarly = closed;
  result.tapPid ??= transport.pid;
  // closing stdin ends the session; mcp-tap then writes its last records and exits
  await client.close().catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([whenClosed, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
  clearTimeout(timer);
  if (partial !== '') result.stderr.push(partial);
  return result;
}
