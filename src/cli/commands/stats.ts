/** `mcp-tap stats`: per method and per tool counts, errors, latency percentiles and bytes of a session. */
import type { Command } from 'commander';
import { collect, openInput } from '../../transcript/read-input.js';
import { computeStats, renderTextStats } from '../../transcript/stats.js';
import { writeOutput } from '../../transcript/write-output.js';
import { escapeControl } from '../../view/escape.js';
import { warn } from '../stderr.js';

interface StatsCliOptions {
  session: string;
  json?: boolean;
  output?: string;
}

export function define(program: Command): void {
  program
    .command('stats')
    .summary('per method and per tool: count, errors, latency percentiles, bytes')
    .description(
      'Statistics of a session (default: the last session of the most recent log): per method and direction, and per tool ' +
        'for tools/call — count, error answers, isError results, p50/p95/p99/max latency (nearest rank), bytes received and ' +
        'sent by the server — then unanswered requests, findings by code and the session duration. With --session all, ' +
        'latencies are pooled over the sessions.',
    )
    .argument('[file]', 'the log file (default: the most recently written log in the default log directory)')
    .option('--session <which>', "'last', 'all', or a session id (or unique prefix)", 'last')
    .option('--json', 'print the numbers as JSON')
    .option('-o, --output <file>', 'write to this file (atomically, mode 0600) instead of stdout')
    .action(async (file: string | undefined, opts: StatsCliOptions) => {
      const input = await openInput({ file, session: opts.session, warn });
      const stats = computeStats(await collect(input.records));
      const text = opts.json ? `${JSON.stringify(stats, null, 2)}\n` : renderTextStats(stats, escapeControl);
      await writeOutput(opts.output, [text], process.stdout, opts.json ? 'data' : 'text');
    });
}
