/**
 * Proxy mode: `mcp-tap [options] -- <command> [args…]`. Parsed by hand (not commander) because this is
 * the hot path a host waits on, and because everything after the command belongs to the server.
 */
import { existsSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { findCommand } from '../../platform/command-lookup.js';
import { defaultLogDir, deriveServerName, resolveLogPath } from '../../log/log-path.js';
import { servesOwnLog } from '../../platform/tap-invocation.js';
import type { ProxyOptions } from '../../proxy/run-proxy.js';
import { startServer } from '../../proxy/early-start.js';
import { isUrlArg, SinkFlags } from './sink-flags.js';
import { flushHostStdout, openHostStdout } from '../../proxy/host-streams.js';
import { openDebugLog, trace, warn } from '../stderr.js';
import { debugFromEnv, debugLogPath, refuseStdout } from '../debug-options.js';
import { VERSION } from '../../version.js';

const USAGE = 'usage: mcp-tap [options] -- <command> [args...]   (mcp-tap --help for more)';

/** How long a host may stop reading, after the server exited, before its last bytes are given up. */
const HOST_STALL_MS = 30_000;

const VALUE_OPTIONS = new Set(['--name', '--log', '--max-log-bytes', '--max-log-size', '--max-log-files', '--grace', '--redact-env', '--ship', '--ship-options', '--debug-log']);

/** Largest delay a Node timer accepts; beyond it setTimeout fires after 1 ms instead. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function positiveInt(flag: string, value: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} takes a whole number${min > 0 ? ` ≥ ${min}` : ''}${max < Number.MAX_SAFE_INTEGER ? ` ≤ ${max}` : ''}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** The proxy command line → options; throws UsageError with a one-line explanation. */
export function parseProxyArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ProxyOptions | 'help' | 'version' {
  const values = new Map<string, string>();
  const redactEnv: string[] = [];
  let noLog = false;
  let quiet = false;
  const sinks = new SinkFlags();
  let debug = debugFromEnv(env);
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
    if (a === '--debug') {
      debug = true;
      continue;
    }
    const taken = sinks.take(argv, i);
    if (taken > 0) {
      i += taken - 1;
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
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value (${USAGE})`);
    if (flag === '--redact-env') redactEnv.push(value);
    else values.set(flag, value);
  }
  const command = argv[i];
  if (command === undefined) throw new UsageError(`missing the server command (${USAGE})`);
  if (command.trim() === '') throw new UsageError(`the server command is empty (${USAGE})`);
  const args = argv.slice(i + 1);
  const name = values.get('--name') ?? deriveServerName(command, args);
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name) || name.startsWith('.')) {
    throw new UsageError(`--name must be letters, digits, '.', '_' or '-' (it names the log file), got ${JSON.stringify(name)}`);
  }
  let logPath = noLog ? null : resolveLogPath({ log: values.get('--log'), name }, env);
  // `mcp-tap -- mcp-tap mcp`: the log would grow with every read of it; logged only where asked (--log, MCP_TAP_LOG)
  const asked = values.has('--log') || (env.MCP_TAP_LOG !== undefined && env.MCP_TAP_LOG !== '');
  const selfServed = logPath !== null && !asked && servesOwnLog(command, args, logPath, defaultLogDir(env), process.cwd());
  if (selfServed) logPath = null;
  return {
    command,
    args,
    name,
    logPath,
    maxLogBytes: values.has('--max-log-bytes') ? positiveInt('--max-log-bytes', values.get('--max-log-bytes')!, 1024) : 1024 * 1024,
    maxLogSize: values.has('--max-log-size') ? positiveInt('--max-log-size', values.get('--max-log-size')!) : 0,
    maxLogFiles: values.has('--max-log-files') ? positiveInt('--max-log-files', values.get('--max-log-files')!) : 3,
    graceMs: values.has('--grace') ? positiveInt('--grace', values.get('--grace')!, 0, MAX_TIMER_MS) : 2000,
    quiet,
    ...(redactEnv.length > 0 ? { redactEnv } : {}),
    ...sinks.options(env),
    debugLog: debug || values.has('--debug-log') ? debugLogPath(values.get('--debug-log'), env) : null,
    ...(selfServed ? { notLogged: "the server is mcp-tap's own MCP server, which reads this log directory: not logging its session there (--log <file> logs it)" } : {}),
  };
}

/** The server command when it was given without `--` (then it may as well be a mistyped subcommand). */
export function bareCommand(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return null;
    if (!a.startsWith('-') || a === '-') return a;
    if (VALUE_OPTIONS.has(a) || (a === '--otlp' && isUrlArg(argv[i + 1]))) i++;
  }
  return null;
}

/** Whether spawn can find `command`: a path that exists, or a file in a PATH directory (PATHEXT on Windows). */
export function commandExists(command: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  return findCommand(command, { platform, env, cwd: process.cwd() }, existsSync) !== null;
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * Runs the proxy and ends the process with the server's status once our output is flushed.
 * `subcommands` (for the hint): a word before any `--` that is neither one of them nor a command on PATH
 * is a usage error (exit 2), not a server that failed to start.
 */
export async function runProxyCommand(argv: readonly string[], subcommands: readonly string[] = []): Promise<number> {
  const parsed = parseProxyArgs(argv);
  if (parsed === 'help') {
    const { printHelp } = await import('../program.js');
    return printHelp({}, []);
  }
  if (parsed === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const bare = bareCommand(argv);
  if (bare !== null && !commandExists(bare)) {
    const near = subcommands.find((s) => distance(s, bare) <= 2);
    throw new UsageError(
      `${JSON.stringify(bare)} is neither a subcommand nor a command on PATH${near ? ` (did you mean ${near}?)` : ''}; a server command goes after --  (${USAGE})`,
    );
  }
  if (parsed.debugLog) {
    refuseStdout(parsed.debugLog);
    // the trace holds the server's argv and environment-derived paths: masked as the log is
    const [{ EnvMasker }, { envSecrets }] = await Promise.all([import('../../log/env-mask.js'), import('../../log/env-secrets.js')]);
    const masker = new EnvMasker(envSecrets(process.env, parsed.redactEnv ?? []));
    await openDebugLog(parsed.debugLog, masker.active ? (line) => masker.maskLine(line) : undefined);
    trace('proxy', {
      version: VERSION,
      argv,
      resolved: findCommand(parsed.command, { platform: process.platform, env: process.env, cwd: process.cwd() }, existsSync),
      log: parsed.logPath,
      graceMs: parsed.graceMs,
      platform: process.platform,
      node: process.versions.node,
      uptimeMs: performance.now(),
    });
  }
  if (parsed.notLogged !== undefined) warn(parsed.notLogged);
  const stdout = openHostStdout();
  // A broken stdout (host gone) is handled by the pump; never let it become an uncaught exception.
  stdout.on('error', () => {});
  // the server starts before the relay's and the analysis' code is loaded: the host waits on the server
  const started = startServer(parsed.command, parsed.args, trace);
  const { runProxy } = await import('../../proxy/run-proxy.js');
  const status = await runProxy(parsed, { stdin: process.stdin, stdout, stderr: process.stderr, warn, trace }, started);
  // every byte the server wrote reaches a host that is still reading; one that stopped cannot hold us
  // (a paused host gets HOST_STALL_MS without progress before its last bytes are given up, and told)
  const stallMs = Math.max(HOST_STALL_MS, parsed.graceMs);
  const left = await flushHostStdout(stdout, stallMs);
  if (left > 0) warn(`the host did not read the server's last ${left} bytes within ${stallMs} ms after the server exited; they were not delivered`);
  // a Windows tree stop still listing what the server started (mcp-tap gave up on the server meanwhile)
  // is seen through: exiting would leave those processes running
  const { treeStopsSettled } = await import('../../platform/process-tree.js');
  await treeStopsSettled();
  // stdin may still be open (the host keeps it); nothing else should hold the process.
  process.exit(status);
}
