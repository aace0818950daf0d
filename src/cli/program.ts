/** Commander wiring for subcommands (not the proxy): usage errors become UsageError, exit codes flow back. */
import { Command, CommanderError } from 'commander';
import { UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { defaultLogDir } from '../log/log-path.js';
import { READER_COMMANDS, sizeReaderHeap } from './reader-heap.js';

let exitCode = 0;

/** Lets a subcommand action report a non-error exit status (e.g. 1 for "differences found"). */
export function setExitCode(code: number): void {
  exitCode = code;
}

type Loader = () => Promise<{ define: (program: Command) => void }>;

/** A fresh commander program configured the same way for every subcommand. */
export function makeProgram(): Command {
  const program = new Command('mcp-tap');
  program
    .version(VERSION, '-V, --version')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      // commander's own error lines are replaced by our one-line UsageError
      outputError: () => {},
    });
  return program;
}

function applyExitOverride(cmd: Command): void {
  cmd.exitOverride();
  cmd.configureOutput({ outputError: () => {} });
  for (const sub of cmd.commands) applyExitOverride(sub);
}

function translate(err: unknown): never | number {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
    throw new UsageError(err.message.replace(/^error: /, ''));
  }
  throw err;
}

/** Loads one subcommand module, parses argv with it, and returns the exit status. */
export async function runSubcommand(name: string, load: Loader, argv: string[]): Promise<number> {
  if (READER_COMMANDS.has(name)) sizeReaderHeap();
  const program = makeProgram();
  const mod = await load();
  mod.define(program);
  applyExitOverride(program);
  exitCode = 0;
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    return translate(err);
  }
  return exitCode;
}

/** Top-level help: the proxy usage plus every subcommand's one-line summary. */
export async function printHelp(all: Record<string, Loader>, argv: string[]): Promise<number> {
  const lines = [
    `mcp-tap ${VERSION} — a transparent tap for stdio MCP servers`,
    '',
    'Usage:',
    '  mcp-tap [options] -- <command> [args...]   relay a stdio MCP server and log every message',
    '  mcp-tap <subcommand> [options]',
    '',
    'Proxy options:',
    '  --name <name>            name of the server (log file name); default: derived from the command',
    `  --log <file>             log file (default $MCP_TAP_LOG, else ${defaultLogDir()}/<name>.jsonrpc.log)`,
    '  --no-log                 relay only, write no log',
    '  --max-log-bytes <n>      keep messages up to n bytes whole in the log (default 1048576)',
    '  --max-log-size <bytes>   rotate the log when it grows past this size',
    '  --max-log-files <n>      rotated files to keep (default 3)',
    '  --grace <ms>             shutdown grace period before SIGTERM, then SIGKILL (default 2000)',
    '  --redact-env <NAME>      mask this variable\'s value in the log too (repeatable); values of variables',
    '                           named like secrets (KEY, TOKEN, SECRET, PASSWORD, AUTH…) are always masked',
    '  -q, --quiet              do not announce the log path on stderr',
    '  --otlp [url]             send each exchange as an OpenTelemetry span (OTLP/HTTP; default: OTEL_EXPORTER_OTLP_* or localhost:4318)',
    '  --otlp-content           with --otlp: tool arguments and results on the spans (redacted)',
    '  --ship <target>          send every record to a pino transport (package or file; repeatable)',
    '  --ship-options <json>    options of the --ship before it',
    `  --debug                  also write mcp-tap's decision trace (pino JSON) to ${defaultLogDir()}/mcp-tap-debug.log (also: MCP_TAP_DEBUG=1)`,
    '  --debug-log <file>       write the decision trace to this file instead (implies --debug)',
    '',
    'Subcommands:',
  ];
  const summaries: string[] = [];
  for (const [name, load] of Object.entries(all)) {
    try {
      const program = makeProgram();
      (await load()).define(program);
      for (const c of program.commands) summaries.push(`  ${c.name().padEnd(24)} ${c.summary() || c.description()}`);
    } catch {
      summaries.push(`  ${name.padEnd(24)} (not available in this build)`);
    }
  }
  lines.push(...summaries, '', 'Run `mcp-tap <subcommand> --help` for its options.', '');
  process.stdout.write(lines.join('\n'));
  void argv;
  return 0;
}
