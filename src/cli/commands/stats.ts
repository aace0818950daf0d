/** `mcp-tap stats`: per method and per tool counts, errors, latency percentiles and bytes of a session. */
import type { Command } from 'commander';
import { contextNeedsBody } from '../../lens/context/context-cost.js';
import { loadTokenizer } from '../../lens/context/tokenizer.js';
import { findLatestLog } from '../../log/log-files.js';
import type { LogRecord } from '../../log/record.js';
import { openInput } from '../../transcript/read-input.js';
import { renderTextStats, StatsBuilder, statsNeedsBody } from '../../transcript/stats.js';
import { writeOutput } from '../../transcript/write-output.js';
import { addRedactFlags, outputRedaction, type RedactSwitch } from '../../transcript/redact-options.js';
import { escapeControl } from '../../text/escape.js';
import { progressFor } from '../../view/progress-line.js';
import { warn } from '../stderr.js';

interface StatsCliOptions {
  session: string;
  json?: boolean;
  output?: string;
}

export function define(program: Command): void {
  const cmd = program
    .command('stats')
    .summary('per method and per tool: count, errors, latency percentiles, bytes; context cost in tokens')
    .description(
      'Statistics of a session (default: the last session of the most recent log): per method and direction, and per tool ' +
        'for tools/call — count, error answers, isError results, p50/p95/p99/max latency (nearest rank), bytes received and ' +
        'sent by the server — then unanswered requests, findings by code (security findings included), what the session costs ' +
        'the model\'s context in tokens (o200k_base) and the session duration. With --session all, ' +
        'latencies are pooled over the sessions.',
    )
    .argument('[file]', 'the log file (default: the most recently written log in the default log directory)')
    .option('--session <which>', "'last', 'all', or a session id (or unique prefix)", 'last')
    .option('--json', 'print the numbers as JSON')
    .option('-o, --output <file>', 'write to this file (atomically, mode 0600) instead of stdout');
  addRedactFlags(cmd, 'show names and texts exactly as logged, secrets included (default: redacted as by export)')
    .action(async (file: string | undefined, opts: StatsCliOptions & RedactSwitch) => {
      const redact = outputRedaction(opts);
      const path = file ?? (await findLatestLog());
      const progress = progressFor(path);
      const needsBody = (h: LogRecord) => statsNeedsBody(h) || contextNeedsBody(h);
      const input = await openInput({ file: path, session: opts.session, warn, needsBody, onProgress: progress.update });
      const builder = new StatsBuilder({ tokenizer: await loadTokenizer() });
      try {
        for await (const r of input.records) builder.add(r);
      } finally {
        progress.done();
      }
      const stats = builder.finish();
      const shown = redact(stats);
      const text = opts.json ? `${JSON.stringify(shown, null, 2)}\n` : renderTextStats(shown, escapeControl);
      await writeOutput(opts.output, [text], process.stdout, opts.json ? 'data' : 'text');
    });
}
