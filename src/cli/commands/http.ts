/** `mcp-tap http <upstream-url>`: tap a remote MCP server (Streamable HTTP or legacy HTTP+SSE) from 127.0.0.1. */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { resolveLogPath } from '../../log/log-path.js';
import { runHttpProxy } from '../../http/run-http-proxy.js';
import { setExitCode } from '../program.js';
import { warn } from '../stderr.js';
import { SinkFlags } from './sink-flags.js';

interface HttpCliOptions {
  port: string;
  name?: string;
  log?: string | false;
  maxLogBytes: string;
  maxLogSize: string;
  maxLogFiles: string;
  quiet?: boolean;
  redactEnv?: string[];
}

function whole(flag: string, value: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** The upstream URL, checked: http or https, no credentials in it. */
export function parseUpstream(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`not a URL: ${JSON.stringify(text)} (give the server's URL, e.g. https://api.example.com/mcp)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`the upstream URL must be http: or https:, got ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new UsageError('the upstream URL must not hold credentials; the host sends its own Authorization header');
  return url;
}

/** A log name from the upstream's host: `https://api.example.com/mcp` → `api.example.com`. */
function nameFrom(url: URL): string {
  return url.hostname.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'remote';
}

/** Registers `http` on the program (loaded only when named). */
export function define(program: Command): void {
  const cmd = program
    .command('http')
    .summary('tap a remote MCP server: a loopback reverse proxy for Streamable HTTP and HTTP+SSE')
    .description(
      'Listens on 127.0.0.1 and relays every request to the same path on the upstream origin, unchanged, ' +
        'writing the same annotated log as proxy mode. Put the printed URL in the host config (see docs/http.md).',
    )
    .argument('<upstream-url>', "the remote server's MCP URL, e.g. https://api.example.com/mcp")
    .option('--port <n>', 'port to listen on (0: any free port)', '0')
    .option('--name <name>', 'name of the server (log file name); default: the upstream host name')
    .option('--log <file>', 'log file (default $MCP_TAP_LOG, else $XDG_STATE_HOME/mcp-tap/<name>.jsonrpc.log)')
    .option('--no-log', 'relay only, write no log')
    .option('--max-log-bytes <n>', 'keep messages up to n bytes whole in the log', '1048576')
    .option('--max-log-size <bytes>', 'rotate the log when it grows past this size (0: never)', '0')
    .option('--max-log-files <n>', 'rotated files to keep', '3')
    .option('-q, --quiet', 'do not print where the log goes')
    .option('--otlp [endpoint]', 'send spans to an OTLP/HTTP receiver (default: OTEL_EXPORTER_OTLP_* or http://localhost:4318); give it after the upstream URL or as --otlp=<url>')
    .option('--otlp-content', 'tool arguments and results as span attributes (redacted)')
    .option('--ship <target>', 'a pino transport that gets every record (repeatable)')
    .option('--ship-options <json>', 'options object of the --ship before it')
    .option('--redact-env <name>', "mask this variable's value in the log and the sinks beside it (repeatable)", (v: string, all: string[] = []) => [...all, v]);
  // --ship-options belongs to the --ship before it: the flags are taken in the order commander meets them
  const sinks = new SinkFlags();
  cmd.on('option:otlp', (v: string | boolean | undefined) => void sinks.take(typeof v === 'string' ? [`--otlp=${v}`] : ['--otlp'], 0));
  cmd.on('option:otlp-content', () => void sinks.take(['--otlp-content'], 0));
  cmd.on('option:ship', (v: string) => void sinks.take(['--ship', v], 0));
  cmd.on('option:ship-options', (v: string) => void sinks.take(['--ship-options', v], 0));
  cmd.action(async (upstreamText: string, opts: HttpCliOptions) => {
    const upstream = parseUpstream(upstreamText);
    const name = opts.name ?? nameFrom(upstream);
    if (!/^[A-Za-z0-9._-]{1,100}$/.test(name) || name.startsWith('.')) {
      throw new UsageError(`--name must be letters, digits, '.', '_' or '-' (it names the log file), got ${JSON.stringify(name)}`);
    }
    const logPath = opts.log === false ? null : resolveLogPath({ log: opts.log, name }, process.env);
    const code = await runHttpProxy(
      {
        upstream,
        port: whole('--port', opts.port, 0, 65535),
        name,
        logPath,
        maxLogBytes: whole('--max-log-bytes', opts.maxLogBytes, 1024),
        maxLogSize: whole('--max-log-size', opts.maxLogSize),
        maxLogFiles: whole('--max-log-files', opts.maxLogFiles),
        quiet: opts.quiet === true,
        ...(opts.redactEnv !== undefined && opts.redactEnv.length > 0 ? { redactEnv: opts.redactEnv } : {}),
        ...sinks.options(process.env),
      },
      { warn },
    );
    setExitCode(code);
  });
}
