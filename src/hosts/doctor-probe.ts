/**
 * One doctor session: start a server through mcp-tap (the running CLI, with its log in a given file)
 * using the official SDK client, the way a host does; initialize, then tools/list; record what happened.
 * The SDK is imported lazily so other commands never load it.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../version.js';
import { readLogFindings, type LogFindings } from './doctor-log.js';

export interface ProbeInput {
  /** Log name for mcp-tap (`--name`). */
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  timeoutMs: number;
  /** How to start mcp-tap: e.g. [process.execPath, '/…/bin/mcp-tap.js']. */
  tap: { command: string; args: string[] };
  logFile: string;
}

export interface ProbeResult {
  initialized: boolean;
  /** From start to the initialize answer. */
  initMs?: number;
  protocolVersion?: string;
  serverInfo?: { name?: string; version?: string };
  tools?: number;
  toolsSupported?: boolean;
  toolsError?: string;
  /** Why the session did not get through initialize. */
  failure?: { kind: 'timeout' | 'closed' | 'error'; message: string };
  /** Errors the SDK reported while reading the server's stdout (not JSON, not JSON-RPC). */
  readErrors: string[];
  /** mcp-tap's stderr as the client saw it (server stderr plus mcp-tap's own lines), last lines only. */
  stderrTail: string[];
  log: LogFindings;
}

const STDERR_KEEP_BYTES = 64 * 1024;

/** A transport that watches the messages and errors going past a real one. */
class WatchedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  closed = false;
  constructor(
    private readonly inner: Transport,
    private readonly watch: { sent: (m: JSONRPCMessage) => void; message: (m: JSONRPCMessage) => void; error: (e: Error) => void },
  ) {}
  async start(): Promise<void> {
    this.inner.onmessage = (m) => {
      this.watch.message(m);
      this.onmessage?.(m);
    };
    this.inner.onerror = (e) => {
      this.watch.error(e);
      this.onerror?.(e);
    };
    this.inner.onclose = () => {
      this.closed = true;
      this.onclose?.();
    };
    await this.inner.start();
  }
  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    this.watch.sent(message);
    return this.inner.send(message, options);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

function lastLines(text: string, n: number): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines.slice(-n);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs one probe session; never throws for anything the server does. */
export async function probeServer(input: ProbeInput): Promise<ProbeResult> {
  const [{ Client }, { ExecaStdioTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('../client/execa-stdio-transport.js'),
  ]);
  const result: ProbeResult = { initialized: false, readErrors: [], stderrTail: [], log: { stderr: [], nonJsonStdout: [], nonJsonCount: 0 } };
  const stdio = new ExecaStdioTransport({
    command: input.tap.command,
    args: [...input.tap.args, '--quiet', '--grace', '1000', '--name', input.name, '--log', input.logFile, '--', input.command, ...input.args],
    env: input.env,
    cwd: input.cwd,
    stderr: 'pipe',
  });
  let stderrText = '';
  stdio.stderr?.on('data', (chunk: Buffer) => {
    stderrText += chunk.toString('utf8');
    if (stderrText.length > STDERR_KEEP_BYTES) stderrText = stderrText.slice(-STDERR_KEEP_BYTES);
  });
  const stderrDone = new Promise<void>((resolve) => {
    if (!stdio.stderr) return resolve();
    stdio.stderr.once('end', () => resolve());
    stdio.stderr.once('close', () => resolve());
  });
  const started = performance.now();
  let initId: unknown;
  const transport = new WatchedTransport(stdio, {
    sent: (m) => {
      const msg = m as { id?: unknown; method?: string };
      if (msg.method === 'initialize') initId = msg.id;
    },
    message: (m) => {
      const msg = m as { id?: unknown; method?: string; result?: { protocolVersion?: unknown; serverInfo?: { name?: string; version?: string } } };
      if (result.initMs === undefined && msg.id !== undefined && msg.id === initId && msg.result) {
        result.initMs = performance.now() - started;
        if (typeof msg.result.protocolVersion === 'string') result.protocolVersion = msg.result.protocolVersion;
        result.serverInfo = msg.result.serverInfo;
      }
    },
    error: (e) => {
      if (result.readErrors.length < 10) result.readErrors.push(e.message);
    },
  });
  const client = new Client({ name: 'mcp-tap-doctor', version: VERSION }, { capabilities: {} });
  try {
    await client.connect(transport, { timeout: input.timeoutMs });
    result.initialized = true;
  } catch (err) {
    const text = message(err);
    if (transport.closed) result.failure = { kind: 'closed', message: text };
    else if (/timed? ?out/i.test(text)) result.failure = { kind: 'timeout', message: text };
    else result.failure = { kind: 'error', message: text };
  }
  if (result.initialized) {
    const caps = client.getServerCapabilities();
    result.toolsSupported = caps?.tools !== undefined;
    if (result.toolsSupported) {
      try {
        let count = 0;
        let cursor: string | undefined;
        for (let page = 0; page < 50; page++) {
          const r = await client.listTools(cursor ? { cursor } : {}, { timeout: input.timeoutMs });
          count += r.tools.length;
          cursor = r.nextCursor;
          if (!cursor) break;
        }
        result.tools = count;
      } catch (err) {
        result.toolsError = message(err);
      }
    }
  }
  await client.close().catch(() => {});
  // mcp-tap's stderr ends when it has exited, and only then is its log of the session whole (on a busy
  // machine that took longer than a second): wait for it, bounded
  await Promise.race([stderrDone, new Promise((r) => setTimeout(r, Math.max(5000, input.timeoutMs)).unref())]);
  result.stderrTail = lastLines(stderrText, 10);
  result.log = await readLogFindings(input.logFile);
  return result;
}
