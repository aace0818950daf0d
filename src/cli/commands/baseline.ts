/** `mcp-tap baseline save`: a session's tools, resources, prompts, capabilities, latencies and finding codes as a JSON file for `diff`. */
import type { Command } from 'commander';
import { buildBaseline } from '../../check/baseline.js';
import { BASELINE_BOUND } from '../../check/facts.js';
import { readFacts } from '../../check/read-facts.js';
import { loadTokenizer } from '../../lens/context/tokenizer.js';
import { findLatestLog } from '../../log/log-files.js';
import { writeOutput } from '../../transcript/write-output.js';
import { warn } from '../stderr.js';

interface SaveCliOptions {
  session: string;
  output?: string;
}

/** Registers `baseline save`. */
export function define(program: Command): void {
  const baseline = program
    .command('baseline')
    .summary('save what a server offers and how fast it answers, to compare later with `diff`')
    .description('Baselines for `mcp-tap diff`. See docs/check.md.');
  baseline
    .command('save')
    .summary('write the baseline of a session as JSON')
    .description(
      'Writes the baseline of a session (default: the last session of the most recent log): tools, resources, resource ' +
        'templates and prompts as listed (schemas, descriptions, annotations), server capabilities, protocol version, ' +
        'median latency per method and per tool, the finding codes seen and the tokens of each tool definition. Commit it; `mcp-tap diff baseline.json <log>` ' +
        'shows what changed.',
    )
    .argument('[file]', 'the log file (default: the most recently written log in the default log directory)')
    .option('--session <which>', "'last' or a session id (or unique prefix)", 'last')
    .option('-o, --output <file>', 'write to this file (atomically) instead of stdout')
    .action(async (file: string | undefined, opts: SaveCliOptions) => {
      const path = file ?? (await findLatestLog());
      const facts = await readFacts(path, { session: opts.session, bound: BASELINE_BOUND, warn });
      await writeOutput(opts.output, [`${JSON.stringify(buildBaseline(facts, await loadTokenizer()), null, 2)}\n`], process.stdout, 'data');
    });
}
