/**
 * The host side of the demo: the official SDK client starts mcp-tap (which starts the server) and runs
 * a short session through it, step by step, timing each step as the host sees it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ExecaStdioTransport } from '../client/execa-stdio-transport.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TapError } from '../errors.js';
import { VERSION } from '../version.js';

export interface StepResult {
  /** e.g. `tools/call echo`. */
  step: string;
  ok: boolean;
  /** As the host measured it, request to answer (fractional ms). */
  ms: number;
  /** One line about the outcome (wire text: escape before showing it on a terminal). */
  detail: string;
}

export interface DriveResult {
  steps: StepResult[];
  /** mcp-tap's pid: its `start` record carries it, which picks this session out of an appended log. */
  tapPid: number | null;
  serverName?: string;
  serverVersion?: string;
  protocolVersion?: string;
  /** JSON-RPC messages the host sent and received: the log should hold one record for each. */
  sent: number;
  received: number;
  progress: Array<{ progress: number; total?: number; ms: number }>;
  /** What mcp-tap and the server wrote to stderr (diagnostics when something fails). */
  stderr: string;
}

export interface DriveOptions {
  /** mcp-tap's command line (node and its arguments, the server after `--`). */
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Called as each step completes, and for each progress notification. */
  onStep?: (s: StepResult) => void;
  onProgress?: (p: { progress: number; total?: number; ms: number }) => void;
  /** mcp-tap's own warnings (its `mcp-tap:` stderr lines other than the log announcement). */
  onTapWarning?: (message: string) => void;
  /** Per-request timeout. */
  timeoutMs?: number;
}

/** Counts messages both ways and notes the negotiated protocol version; otherwise passes everything on. */
class WatchedTransport implements Transport {
  sent = 0;
  received = 0;
  protocolVersion: string | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(readonly inner: Transport) {}

  /** Progress notifications as they arrive on the wire (the SDK's onprogress can miss the last one). */
  onProgress?: (params: { progress: number; total?: number }) => void;

  async start(): Promise<void> {
    this.inner.onmessage = (m) => {
      this.received++;
      if ('method' in m && m.method === 'notifications/progress' && m.params && typeof m.params['progress'] === 'number') {
        this.onProgress?.({ progress: m.params['progress'], total: typeof m.params['total'] === 'number' ? m.params['total'] : undefined });
      }
      const result = (m as { result?: { protocolVersion?: unknown } }).result;
      if (this.protocolVersion === undefined && typeof result?.protocolVersion === 'string') this.protocolVersion = result.protocolVersion;
      this.onmessage?.(m);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sent++;
    await this.inner.send(message, options);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

const ms = (start: number): number => Math.round((performance.now() - start) * 10) / 10;

/** Text of a tool result's content, for the narrative. */
function resultText(result: unknown): string {
  const content = (result as { content?: Array<{ type?: string; text?: string }> }).content ?? [];
  return content.map((c) => (c.type === 'text' ? (c.text ?? '') : `[${c.type ?? '?'}]`)).join(' ');
}

/** Runs the demo session. Rejects with a TapError when the session cannot even start. */
export async function drive(opts: DriveOptions): Promise<DriveResult> {
  const stdio = new ExecaStdioTransport({ command: opts.command, args: opts.args, env: opts.env, stderr: 'pipe' });
  let stderr = '';
  let partial = '';
  stdio.stderr?.on('data', (d: Buffer) => {
    const text = d.toString('utf8');
    if (stderr.length < 64 * 1024) stderr += text;
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) if (l.startsWith('mcp-tap: ') && !l.startsWith('mcp-tap: logging to ')) opts.onTapWarning?.(l.slice('mcp-tap: '.length));
  });
  const transport = new WatchedTransport(stdio);
  const client = new Client({ name: 'mcp-tap-demo', version: VERSION }, { capabilities: {} });
  const timeout = opts.timeoutMs ?? 20_000;
  const steps: StepResult[] = [];
  const progress: DriveResult['progress'] = [];
  const out: DriveResult = { steps, tapPid: null, sent: 0, received: 0, progress, stderr: '' };

  const record = (s: StepResult) => {
    steps.push(s);
    opts.onStep?.(s);
  };
  /** One step: timed, never throws; failures become ok: false with the error message. */
  const step = async <T>(name: string, fn: () => Promise<T>, describe: (v: T) => string): Promise<T | undefined> => {
    const t = performance.now();
    try {
      const v = await fn();
      record({ step: name, ok: true, ms: ms(t), detail: describe(v) });
      return v;
    } catch (err) {
      record({ step: name, ok: false, ms: ms(t), detail: err instanceof Error ? err.message : String(err) });
      return undefined;
    }
  };

  const t0 = performance.now();
  try {
    await client.connect(transport, { timeout });
  } catch (err) {
    await transport.close().catch(() => {});
    const why = err instanceof Error ? err.message : String(err);
    const said = stderr.trim().split('\n').slice(-3).join(' | ');
    throw new TapError('INTERNAL', `the demo could not start a session through mcp-tap: ${why}${said ? ` (stderr: ${said})` : ''}`);
  }
  out.tapPid = stdio.pid;
  const info = client.getServerVersion();
  out.serverName = info?.name;
  out.serverVersion = info?.version;
  out.protocolVersion = transport.protocolVersion;
  record({
    step: 'initialize',
    ok: true,
    ms: ms(t0),
    // the host's time includes starting mcp-tap and the server; the log's latency is the handshake alone
    detail: `${info?.name ?? '?'} ${info?.version ?? ''}, protocol ${transport.protocolVersion ?? '?'} (includes startup)`.replace(/ {2,}/g, ' '),
  });

  try {
    const tools = await step('tools/list', () => client.listTools(undefined, { timeout }), (r) => {
      const names = r.tools.map((t) => t.name);
      return `${names.length} tools: ${names.slice(0, 4).join(', ')}${names.length > 4 ? ', …' : ''}`;
    });
    const has = (name: string) => tools?.tools.some((t) => t.name === name) ?? false;

    await step('tools/call echo', () => client.callTool({ name: 'echo', arguments: { message: 'Hello from the mcp-tap demo' } }, undefined, { timeout }), resultText);
    if (has('get-sum')) await step('tools/call get-sum', () => client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } }, undefined, { timeout }), resultText);

    const long = has('trigger-long-running-operation')
      ? { name: 'trigger-long-running-operation', arguments: { duration: 1.2, steps: 4 } }
      : has('slow-count')
        ? { name: 'slow-count', arguments: { count: 4, delayMs: 300 } }
        : null;
    if (long) {
      const start = performance.now();
      transport.onProgress = (p) => {
        const e = { ...p, ms: ms(start) };
        progress.push(e);
        opts.onProgress?.(e);
      };
      await step(
        `tools/call ${long.name}`,
        () =>
          client.callTool(long, undefined, {
            timeout,
            resetTimeoutOnProgress: true,
            // asking for progress (sends a progressToken); counted at the transport, see WatchedTransport
            onprogress: () => {},
          }),
        (r) => `${progress.length} progress notification${progress.length === 1 ? '' : 's'}; ${resultText(r)}`,
      );
    }

    const resources = await step('resources/list', () => client.listResources(undefined, { timeout }), (r) => `${r.resources.length} resource${r.resources.length === 1 ? "" : "s"}`);
    const list = resources?.resources ?? [];
    const pick = list.find((r) => r.uri.endsWith('/features.md')) ?? list.find((r) => r.uri.includes('static/document')) ?? list[0];
    if (pick) {
      await step('resources/read', () => client.readResource({ uri: pick.uri }, { timeout }), (r) => {
        const c = r.contents[0] as { mimeType?: string; text?: string; blob?: string } | undefined;
        const size = c?.text !== undefined ? `${c.text.length} characters` : c?.blob !== undefined ? `${c.blob.length} base64 characters` : 'empty';
        return `${pick.uri} (${c?.mimeType ?? 'no type'}, ${size})`;
      });
    }
    await step('ping', () => client.ping({ timeout }), () => 'pong');
  } finally {
    const t = performance.now();
    // closes mcp-tap's stdin; mcp-tap closes the server's, waits its grace period, and exits
    await client.close().catch(() => {});
    record({ step: 'close', ok: true, ms: ms(t), detail: 'stdin closed; mcp-tap shut the server down and exited' });
  }
  out.sent = transport.sent;
  out.received = transport.received;
  out.stderr = stderr;
  return out;
}
