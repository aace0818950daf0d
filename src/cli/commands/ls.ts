/** `mcp-tap ls`: the logs in the log directory and the sessions in them, newest first. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { lensStage } from '../../lens/lenses.js';
import { defaultLogDir } from '../../log/log-path.js';
import { listLogs } from '../../log/log-files.js';
import { listSessions, type SessionSummary } from '../../log/session-summary.js';
import { TapError } from '../../errors.js';
import { redactSummary } from '../../transcript/redact-summary.js';
import { redactOptionsFrom } from '../../transcript/redact-options.js';
import { colorLevel } from '../../view/color.js';
import { escapeControl } from '../../text/escape.js';
import { renderSessionJson, renderSessionTable, sortSessions } from '../../view/ls-table.js';
import { warn } from '../stderr.js';

interface LsCliOptions {
  dir?: string;
  json?: boolean;
  color: boolean;
}

export function define(program: Command): void {
  program
    .command('ls')
    .summary('list the logs and their sessions, newest first')
    .description(
      'Lists every session in the *.jsonrpc.log files of the log directory ($XDG_STATE_HOME/mcp-tap when set, ' +
        'else ~/.local/state/mcp-tap on Linux, ~/Library/Logs/mcp-tap on macOS, %LOCALAPPDATA%\\mcp-tap\\Logs on Windows), newest first: server name, session id, start time, duration, messages, ' +
        'errors (error answers and isError results), findings, the server exit status (- when none was ' +
        'recorded) and path. The server command line (in --json) is shown with its secrets redacted, as by export.',
    )
    .option('--dir <dir>', 'the directory to list (default: the default log directory)')
    .option('--json', 'print the session summaries as JSON')
    .option('--no-color', 'no colours (also: NO_COLOR=1; FORCE_COLOR forces them)')
    .action(async (opts: LsCliOptions) => {
      const dir = opts.dir !== undefined ? resolve(opts.dir) : defaultLogDir(process.env);
      const sessions: SessionSummary[] = [];
      for (const log of await listLogs(dir)) {
        try {
          sessions.push(...(await listSessions(log.path, { stage: lensStage() })));
        } catch (err) {
          // one unreadable or foreign file does not hide the others
          if (!(err instanceof TapError)) throw err;
          warn(`skipped ${err.message}`);
        }
      }
      const rules = redactOptionsFrom({}, process.env);
      const sorted = sortSessions(sessions).map((s) => redactSummary(s, rules));
      const out = process.stdout;
      if (opts.json) {
        out.write(renderSessionJson(sorted));
        return;
      }
      if (sorted.length === 0) {
        out.write(`no logs in ${escapeControl(dir)}\n`);
        return;
      }
      const level = colorLevel({
        env: process.env,
        isTTY: out.isTTY === true,
        depth: out.isTTY && typeof out.getColorDepth === 'function' ? out.getColorDepth() : undefined,
        flag: opts.color,
      });
      out.write(renderSessionTable(sorted, { color: level }));
      // which directory was read (it differs per OS); on stderr, so the table stays one row per session
      process.stderr.write(`${sorted.length} session${sorted.length === 1 ? '' : 's'} in ${escapeControl(dir)}\n`);
    });
}
