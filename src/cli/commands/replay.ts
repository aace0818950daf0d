/** `mcp-tap replay`: plays the client side of a recorded session against a server and compares the answers. */
import type { Command } from 'commander';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { defaultLogDir, deriveServerName, resolveLogPath } from '../../log/log-path.js';
import { colorLevel, makeChalk } from '../../view/color.js';
import { parsePattern } from '../../replay/json-path.js';
import { loadSession } from '../../replay/load.js';
import { planReplay } from '../../replay/plan.js';
import { renderJson, renderText } from '../../replay/render.js';
import { runReplay } from '../../replay/run-replay.js';
import { setExitCode } from '../program.js';
import { warn } from '../stderr.js';

interface ReplayCliOptions {
  session: string;
  only?: string;
  seq?: string;
  ignore?: string[];
  strict?: boolean;
  timeout: string;
  log?: string | false;
  json?: boolean;
  color?: boolean;
}

const USAGE = 'usage: mcp-tap replay [file] [options] -- <server command> [args...]';

function wholeNumber(flag: string, v: string, min: number): number {
  if (!/^\d+$/.test(v) || Number(v) < min) throw new UsageError(`${flag} takes a whole number ≥ ${min}, got ${JSON.stringify(v)}`);
  return Number(v);
}

/** Splits the operands into the log file and the server command, at the `--` the user typed. */
function splitOperands(operands: string[], rawArgs: readonly string[]): { file?: string; command: string[] } {
  const dash = rawArgs.indexOf('--');
  const after = dash >= 0 ? rawArgs.length - dash - 1 : 0;
  if (after === 0) throw new UsageError(`missing the server command after -- (${USAGE})`);
  const before = operands.slice(0, operands.length - after);
  if (before.length > 1) throw new UsageError(`one log file at most before --, got ${before.length} (${USAGE})`);
  const file = before[0];
  return file !== undefined ? { file, command: operands.slice(-after) } : { command: operands.slice(-after) };
}

export function define(program: Command): void {
  program
    .command('replay')
    .summary('play a recorded session against a server and compare every answer')
    .description(
      'Starts the server through mcp-tap (so the replay is logged too) and plays the client side of a recorded session ' +
        '(default: the last session of the most recent log): the handshake with the recorded parameters, then the recorded ' +
        'requests and notifications in order — waiting for an answer where the original client did, pipelining where it did ' +
        "not — answering the server's own requests (sampling, roots, elicitation) with the recorded answers. Each answer is " +
        'compared with the recorded one: ✓ same, ✗ different (with JSON paths), ? missing. Ids, _meta, requestState and ' +
        'timestamps are left out of the comparison (see docs/replay.md). Exit 1 when anything differs or is missing.',
    )
    .usage('[file] [options] -- <server command> [args...]')
    .argument('[file-and-command...]', 'the log file (default: the most recently written log in the default log directory), then -- and the server command')
    .option('--session <which>', "'last' or a session id (or unique prefix)", 'last')
    .option('--only <method-or-tool>', 'after the handshake, replay only the requests with this method or target (tool, prompt, uri)')
    .option('--seq <n>', 'after the handshake, replay only the request with this seq (or the one its answer with this seq answers)')
    .option('--ignore <path>', 'leave this JSON path out of comparisons (repeatable): result.content[*].text, $.result._meta, ..timestamp', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .option('--strict', 'compare the default volatile fields too (_meta, requestState, timestamps)')
    .option('--timeout <ms>', 'how long to wait for each answer (a request that was slow in the recording gets twice its time)', '10000')
    .option('--log <file>', 'log of the replay (default: <log dir>/replay-<name>.jsonrpc.log)')
    .option('--no-log', 'do not log the replay')
    .option('--json', 'print the result as JSON')
    .option('--no-color', 'no colours in the text report')
    .action(async (operands: string[], opts: ReplayCliOptions, cmd: Command) => {
      // commander keeps the arguments as given (with the `--`) on the program; its types do not show it
      const raw = (cmd.parent as unknown as { rawArgs?: string[] } | null)?.rawArgs ?? process.argv.slice(2);
      const { file, command } = splitOperands(operands, raw);
      if (opts.only !== undefined && opts.seq !== undefined) throw new UsageError('--only and --seq choose the calls to replay; give one of them');
      const seq = opts.seq !== undefined ? wholeNumber('--seq', opts.seq, 1) : undefined;
      const timeoutMs = wholeNumber('--timeout', opts.timeout, 1);
      const ignore = (opts.ignore ?? []).map(parsePattern);
      const [cmdName, ...args] = command as [string, ...string[]];
      if (cmdName.trim() === '') throw new UsageError(`the server command is empty (${USAGE})`);

      const loaded = await loadSession({ ...(file !== undefined ? { file } : {}), session: opts.session, warn }, 'replay');
      const sel = seq !== undefined ? { seq } : opts.only !== undefined ? { only: opts.only } : {};
      const plan = planReplay(loaded.session, sel);

      const name = `replay-${deriveServerName(cmdName, args)}`.slice(0, 100);
      const logPath =
        opts.log === false ? null : typeof opts.log === 'string' ? resolveLogPath({ log: opts.log, name }) : join(defaultLogDir(), `${name}.jsonrpc.log`);
      const outcome = await runReplay({
        plan,
        command: cmdName,
        args,
        logPath,
        name,
        timeoutMs,
        compare: { ignore, volatile: opts.strict !== true },
      });
      const ctx = {
        logFile: loaded.path,
        command: cmdName,
        args,
        ...(logPath ? { replayLog: logPath } : {}),
        ...(outcome.replaySession ? { replaySession: outcome.replaySession } : {}),
      };
      const chalk = makeChalk(colorLevel({ env: process.env, isTTY: process.stdout.isTTY === true, ...(opts.color === false ? { flag: false } : {}) }));
      process.stdout.write(opts.json ? renderJson(outcome.result, ctx) : renderText(outcome.result, ctx, chalk));
      if (outcome.result.failed) setExitCode(1);
    });
}
