/** `mcp-tap demo`: a real MCP session through mcp-tap with no setup, then what the log recorded. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { setExitCode } from '../program.js';
import { warn } from '../stderr.js';

interface DemoCliOptions {
  log?: string;
  json?: boolean;
  server: string;
  color: boolean;
}

export function define(program: Command): void {
  program
    .command('demo')
    .summary('drive a real MCP server through mcp-tap and show what the log recorded')
    .description(
      'The official MCP SDK client plays the host: it starts mcp-tap, which starts server-everything (when ' +
        "installed, else mcp-tap's bundled demo server), and runs initialize, tools/list, a few tools/call (one " +
        'with progress notifications), a resource read and ping. Then it reads the session back from the log ' +
        'and summarizes it. Exits 0 when every step succeeded.',
    )
    .option('--log <file>', 'log file (default: <default log dir>/demo.jsonrpc.log; appended to)')
    .option('--json', 'print a machine-readable report instead of the narrative')
    .option('--server <which>', 'auto, everything or bundled', 'auto')
    .option('--no-color', 'no colours (also: NO_COLOR=1; FORCE_COLOR forces them)')
    .action(async (opts: DemoCliOptions) => {
      if (opts.server !== 'auto' && opts.server !== 'everything' && opts.server !== 'bundled') {
        throw new UsageError(`--server must be auto, everything or bundled, got ${JSON.stringify(opts.server)}`);
      }
      const { runDemo } = await import('../../demo/run-demo.js');
      const report = await runDemo({ log: opts.log !== undefined ? resolve(opts.log) : undefined, json: opts.json, server: opts.server, color: opts.color, warn });
      if (!report.ok) setExitCode(1);
    });
}
