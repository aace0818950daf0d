/** `mcp-tap mock`: a stdio MCP server that serves the server side of a recorded session. */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { escapeControl } from '../../text/escape.js';
import { loadSession } from '../../replay/load.js';
import { runMock } from '../../replay/run-mock.js';
import { warn } from '../stderr.js';

interface MockCliOptions {
  session: string;
  timeout: string;
  quiet?: boolean;
}

export function define(program: Command): void {
  program
    .command('mock')
    .summary('serve the server side of a recorded session over stdio (an mcpServers entry)')
    .description(
      'A stdio MCP server that answers from a recorded session (default: the last session of the most recent log): ' +
        'initialize with the recorded result, each request with the recorded answer whose method and params match best ' +
        "(exact params first, then the same tool, prompt or resource, or the same method, in recorded order), the server's " +
        'recorded notifications and requests where they happened. Anything unknown gets -32601 and a line on stderr. ' +
        'stdout carries only JSON-RPC; use it as the command of an mcpServers entry. See docs/replay.md.',
    )
    .argument('[file]', 'the log file (default: the most recently written log in the default log directory)')
    .option('--session <which>', "'last' or a session id (or unique prefix)", 'last')
    .option('--timeout <ms>', "how long an answer waits for the client's answer to a request the mock sent first", '30000')
    .option('-q, --quiet', 'do not announce the session on stderr (explanations are still written)')
    .action(async (file: string | undefined, opts: MockCliOptions) => {
      if (!/^\d+$/.test(opts.timeout) || Number(opts.timeout) < 1) throw new UsageError(`--timeout takes a whole number ≥ 1, got ${JSON.stringify(opts.timeout)}`);
      const say = (text: string): void => warn(`mock: ${escapeControl(text)}`);
      const { path, session } = await loadSession({ ...(file !== undefined ? { file } : {}), session: opts.session, warn }, 'mock');
      const shortened = session.messages.filter((m) => m.from === 'server' && m.truncated).length;
      const noise = session.messages.filter((m) => m.from === 'server' && m.kind === 'invalid').length;
      if (!opts.quiet) say(`serving session ${session.id} of ${path}`);
      if (shortened > 0) say(`${shortened} recorded server message(s) are shortened copies in the log; they are served as the log holds them`);
      if (noise > 0) say(`the recording has ${noise} stdout line(s) that are not JSON-RPC; the mock leaves them out`);
      await runMock(session, { stdin: process.stdin, stdout: process.stdout, say }, Number(opts.timeout), opts.quiet === true);
    });
}
