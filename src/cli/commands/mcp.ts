/** `mcp-tap mcp`: the recorded sessions as a stdio MCP server, for the agent to debug its own servers (docs/mcp-server.md). */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { defaultLogDir } from '../../log/log-path.js';
import { DEFAULT_MAX_TOKENS } from '../../mcp/budget.js';
import { collectOption, redactOptionsFrom } from '../../transcript/redact-options.js';
import { warn } from '../stderr.js';

interface McpCliOptions {
  dir?: string;
  log?: string;
  maxTokens: string;
  redactKey?: string[];
  redactPattern?: string[];
  redactEnv?: string[];
}


export function define(program: Command): void {
  program
    .command('mcp')
    .summary('the recorded sessions as an MCP server (stdio), for the agent to read them itself')
    .description(
      'Serves the logs of the log directory (or of --dir, or the one log of --log) over stdio as an MCP server: ' +
        'read-only tools to list sessions, search messages, show one message, stats, check and diff, and each ' +
        'session as a Markdown resource. Everything is redacted as export redacts it (there is no way to turn that ' +
        `off here) and every answer stays under --max-tokens (default ${DEFAULT_MAX_TOKENS}), long lists going on with ` +
        'a cursor. Set it up with: claude mcp add mcp-tap -- mcp-tap mcp. See docs/mcp-server.md.',
    )
    .option('--dir <dir>', 'the log directory to serve (default: $XDG_STATE_HOME/mcp-tap)')
    .option('--log <file>', 'serve this one log instead of a directory')
    .option('--max-tokens <n>', 'largest answer, in tokens (estimated at 3 characters a token)', String(DEFAULT_MAX_TOKENS))
    .option('--redact-key <name>', 'also redact values under this key (repeatable)', collectOption)
    .option('--redact-pattern <regex>', 'also redact matches of this regular expression, /re/flags allowed (repeatable)', collectOption)
    .option('--redact-env <NAME>', 'also redact the value of this environment variable (repeatable)', collectOption)
    .action(async (opts: McpCliOptions) => {
      if (opts.dir !== undefined && opts.log !== undefined) throw new UsageError('--dir and --log name what to serve: give one of them');
      if (!/^\d+$/.test(opts.maxTokens) || Number(opts.maxTokens) < 2000 || Number(opts.maxTokens) > 1_000_000) {
        throw new UsageError(`--max-tokens takes a number of tokens from 2000 to 1000000, got ${JSON.stringify(opts.maxTokens)}`);
      }
      const redact = redactOptionsFrom(opts);
      const served = opts.log !== undefined ? { file: resolve(opts.log) } : { dir: resolve(opts.dir ?? defaultLogDir()) };
      // the SDK server and the readers load only here
      const { runMcp } = await import('../../mcp/run-mcp.js');
      const ac = new AbortController();
      const stop = () => ac.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await runMcp({ served, maxTokens: Number(opts.maxTokens), redact }, { stdin: process.stdin, stdout: process.stdout, warn, signal: ac.signal });
      process.stdin.destroy();
    });
}
