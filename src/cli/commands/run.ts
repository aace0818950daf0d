/**
 * Proxy mode: `mcp-tap [options] -- <command> [args…]`. Parsed by hand (not commander) because this is
 * the hot path a host waits on, and because everything after the command belongs to the server.
 */
import { UsageError } from '../../errors.js';
import { deriveServerName, resolveLogPath } from '../../log/log-path.js';
import { runProxy, type ProxyOptions } from '../../proxy/run-proxy.js';
import { openHostStdout } from '../../proxy/host-streams.js';
import { warn } from '../stderr.js';
import { VERSION } from '../../version.js';

const USAGE = 'usage: mcp-tap [options] -- <command> [args...]   (mcp-tap --help for more)';

const VALUE_OPTIONS = new Set(['--name', '--log', '--max-log-bytes', '--max-log-size', '--max-log-files', '--grace']);

function positiveInt(flag: string, value: string, min = 0): number {
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`${flag} takes a whole number${min > 0 ? ` ≥ ${min}` : ''}, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** The proxy command line → options; throws UsageError with a one-line explanation. */
export function parseProxyArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ProxyOptions | 'help' | 'version' {
  const values = new Map<string, string>();
  let noLog = false;
  let quiet = false;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    if (a === '-h' || a === '--help') return 'help';
    if (a === '-V' || a === '--version') return 'version';
    if (a === '--no-log') {
      noLog = true;
      continue;
    }
    if (a === '-q' || a === '--quiet') {
      quiet = true;
      continue;
    }
    const eq = a.indexOf('=');
    const flag = eq > 0 ? a.slice(0, eq) : a;
    if (!VALUE_OPTIONS.has(flag)) {
      throw new UsageError(`unknown option ${a}; options go before the server command, which follows --  (${USAGE})`);
    }
    let value: string | undefined;
    if (eq > 0) value = a.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined) throw new UsageError(`${flag} needs a value (${USAGE})`);
    values.set(flag, value);
  }
  const command = argv[i];
  if (command === undefined) throw new UsageError(`missing the server command (${USAGE})`);
  if (command.trim() === '') throw new UsageError(`the server command is empty (${USAGE})`);
  const args = argv.slice(i + 1);
  const name = values.get('--name') ?? deriveServerName(command, args);
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name) || name.startsWith('.')) {
    throw new UsageError(`--name must be letters, digits, '.', '_' or '-' (it names the log file), got ${JSON.stringify(name)}`);
  }
  const logPath = noLog ? null : resolveLogPath({ log: values.get('--log'), name }, env);
  return {
    command,
    args,
    name,
    logPath,
    maxLogBytes: values.has('--max-log-bytes') ? positiveInt('--max-log-bytes', values.get('--max-log-bytes')!, 1024) : 1024 * 1024,
    maxLogSize: values.has('--max-log-size') ? positiveInt('--max-log-size', values.get('--max-log-size')!) : 0,
    maxLogFiles: values.has('--max-log-files') ? positiveInt('--max-log-files', values.get('--max-log-files')!) : 3,
    graceMs: values.has('--grace') ? positiveInt('--grace', values.get('--grace')!) : 2000,
    quiet,
  };
}

/** Runs the proxy and ends the process with the server's status once our output is flushed. */
export async function runProxyCommand(argv: readonly string[]): Promise<number> {
  const parsed = parseProxyArgs(argv);
  if (parsed === 'help') {
    const { printHelp } = await import('../program.js');
    return printHelp({}, []);
  }
  if (parsed === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const stdout = openHostStdout();
  // A broken stdout (host gone) is handled by the pump; never let it become an uncaught exception.
  stdout.on('error', () => {});
  const status = await runProxy(parsed, { stdin: process.stdin, stdout, stderr: process.stderr, warn });
  await new Promise<void>((resolve) => {
    // bounded: a host that never reads must not keep us here
    const t = setTimeout(resolve, parsed.graceMs);
    const done = () => {
      clearTimeout(t);
      resolve();
    };
    if (stdout === process.stdout || stdout.writableFinished || stdout.destroyed) return done(); // files and TTYs: writes were synchronous
    stdout.once('error', done);
    stdout.end(done);
  });
  // stdin may still be open (the host keeps it); nothing else should hold the process.
  process.exit(status);
}
