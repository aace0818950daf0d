/** `mcp-tap tail [file]`: the log as a readable conversation in the terminal; `-f` follows it live. */
import type { Command } from 'commander';
import { addRedactFlags, redactorFrom, type RedactSwitch } from '../../transcript/redact-options.js';
import { colorLevel } from '../../view/color.js';
import { parseFilterOptions } from '../../view/filters.js';
import { UsageError } from '../../errors.js';
import { defaultLogDir } from '../../log/log-path.js';
import { runTailAll } from '../../view/tail-all.js';
import { parseCount, runTail, type TailIo, type TailRunOptions } from '../../view/tail-run.js';
import { stdoutWriter } from '../../view/stdout-writer.js';
import { warn } from '../stderr.js';

interface TailCliOptions extends RedactSwitch {
  follow?: boolean;
  session: string;
  lines?: string;
  full?: boolean;
  json?: boolean;
  color: boolean;
  method?: string[];
  from?: string;
  kind?: string[];
  errors?: boolean;
  grep?: string;
  slow?: string;
  all?: boolean;
  dir?: string;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function define(program: Command): void {
  const cmd = program
    .command('tail')
    .summary('show the log as a readable conversation; -f follows it live')
    .description(
      'Shows a log one line per record: time, seq, direction (→ client to server, ← server to client, • ' +
        'mcp-tap, ! server stderr), kind, id, method and tool/resource/prompt, and for answers the latency ' +
        'and the request answered (↩ #seq). Errors in red, findings in yellow. Without a file: $MCP_TAP_LOG ' +
        'if it exists, else the most recently written log in the default log directory. Without -f: the last ' +
        'session, then exit. Secrets are redacted as by export (docs/export.md) unless --no-redact.',
    )
    .argument('[file]', 'the log to show')
    .option('-f, --follow', 'keep showing records as they are written (survives truncation and rotation)')
    .option('--session <id|last|all>', 'which session: last, all, or an id or a unique id prefix', 'last')
    .option('-n, --lines <count>', 'records of history to show first (default: the whole session; 20 with -f)')
    .option('--full', 'add each message body as indented JSON (long strings shortened)')
    .option('--json', 'print the records as JSON lines, for jq')
    .option('--all', 'every log of the log directory at once, interleaved in time order with a server column (with -f: also logs created later)')
    .option('--dir <dir>', 'with --all: the log directory (default: $XDG_STATE_HOME/mcp-tap)');
  addRedactFlags(cmd, 'show records exactly as logged, secrets included (default: redacted like export)')
    .option('--no-color', 'no colours (also: NO_COLOR=1; FORCE_COLOR forces them)')
    .option('--method <glob>', 'only these methods: tools/*, *list*, ping (comma-separated or repeated)', collect)
    .option('--from <side>', 'only what this side sent: client, server or proxy')
    .option('--kind <kinds>', 'only these kinds: request,response,error,notification,batch,invalid,stderr,event', collect)
    .option('--errors', 'only problems: error answers, isError results, findings, invalid lines, failures')
    .option('--grep <text>', 'only records whose method, target, text or message contains this (any case)')
    .option('--slow <ms>', 'only answers that took at least this many milliseconds')
    .action(async (file: string | undefined, opts: TailCliOptions) => {
      const filter = parseFilterOptions(opts);
      const lines = opts.lines !== undefined ? parseCount(opts.lines) : opts.follow ? 20 : undefined;
      const out = process.stdout;
      const level = colorLevel({
        env: process.env,
        isTTY: out.isTTY === true,
        depth: out.isTTY && typeof out.getColorDepth === 'function' ? out.getColorDepth() : undefined,
        flag: opts.color,
      });
      const redactor = redactorFrom(opts);
      const ac = new AbortController();
      const writer = stdoutWriter(out, () => ac.abort());
      if (opts.all && file !== undefined) throw new UsageError('--all shows every log of a directory: name the directory with --dir, not a file');
      if (opts.dir !== undefined && !opts.all) throw new UsageError('--dir goes with --all');
      const run = opts.all ? (o: TailRunOptions, io: TailIo) => runTailAll(opts.dir ?? defaultLogDir(), o, io) : runTail;
      await run(
        {
          file,
          follow: opts.follow === true,
          session: opts.session,
          lines,
          full: opts.full === true,
          json: opts.json === true,
          filter,
          color: level,
          width: out.isTTY ? out.columns : undefined,
          redact: redactor ? (r) => redactor.next(r) : undefined,
        },
        { write: writer, warn, signal: ac.signal, env: process.env },
      );
    });
}
