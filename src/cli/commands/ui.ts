/** `mcp-tap ui`: a local web page showing every session of every log live (docs/ui.md). */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { defaultLogDir } from '../../log/log-path.js';
import { collectOption, redactOptionsFrom } from '../../transcript/redact-options.js';
import { VERSION } from '../../version.js';
import { warn } from '../stderr.js';

interface UiCliOptions {
  dir?: string;
  port: string;
  open?: boolean;
  redactKey?: string[];
  redactPattern?: string[];
  redactEnv?: string[];
}

export function define(program: Command): void {
  program
    .command('ui')
    .summary('a local web page showing every server\'s sessions live')
    .description(
      'Starts a read-only web server on 127.0.0.1 and prints its URL with a one-time token. The page lists every ' +
        'session of every log in the log directory (and of the files given), newest first, live: state, counts, ' +
        'latency; a session\'s waterfall and messages grow as they happen. Bodies are redacted like export unless ' +
        'revealed in the page. See docs/ui.md.',
    )
    .argument('[files...]', 'more logs to show besides the log directory\'s')
    .option('--dir <dir>', 'the log directory to watch (default: $XDG_STATE_HOME/mcp-tap)')
    .option('--port <port>', 'port on 127.0.0.1 (default: any free port)', '0')
    .option('--open', 'open the page in the default browser')
    .option('--redact-key <name>', 'also redact values under this key (repeatable)', collectOption)
    .option('--redact-pattern <regex>', 'also redact matches of this regular expression, /re/flags allowed (repeatable)', collectOption)
    .option('--redact-env <NAME>', 'also redact the value of this environment variable (repeatable)', collectOption)
    .action(async (files: string[], opts: UiCliOptions) => {
      if (!/^\d+$/.test(opts.port) || Number(opts.port) > 65535) throw new UsageError(`--port takes a port number (0-65535), got ${JSON.stringify(opts.port)}`);
      const redact = redactOptionsFrom(opts);
      const { runUi } = await import('../../ui/run-ui.js');
      const { LIVE_PAGE_SCRIPT } = await import('../../generated/page-bundles.js');
      const ac = new AbortController();
      const stop = () => ac.abort();
      // SIGHUP too (the terminal closed): the launch file of --open goes when ui stops, however it is stopped
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(s, stop);
      await runUi(
        { dir: opts.dir ?? defaultLogDir(), files, port: Number(opts.port), open: opts.open === true, redact, version: VERSION, script: LIVE_PAGE_SCRIPT },
        { say: (line) => process.stdout.write(`${line}\n`), warn, signal: ac.signal },
      );
    });
}
