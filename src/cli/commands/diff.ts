/** `mcp-tap diff <a> <b>`: what changed between two baselines, logs or sessions (tools, capabilities, latency, findings). */
import type { Command } from 'commander';
import { DEFAULT_MIN_MS, DEFAULT_RATIO, diffBaselines } from '../../check/diff.js';
import { loadBaseline } from '../../check/load-baseline.js';
import { addRedactFlags, outputRedaction, type RedactSwitch } from '../../transcript/redact-options.js';
import { renderDiffJson, renderDiffText } from '../../check/render-diff.js';
import { UsageError } from '../../errors.js';
import { loadTokenizer } from '../../lens/context/tokenizer.js';
import { writeOutput } from '../../transcript/write-output.js';
import { setExitCode } from '../program.js';
import { warn } from '../stderr.js';

interface DiffCliOptions {
  format: string;
  output?: string;
  ratio: string;
  minMs: string;
  exitCode?: boolean;
}

function number(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n) || n < min) throw new UsageError(`${flag} takes a number ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/** Registers `diff`. */
export function define(program: Command): void {
  const cmd = program
    .command('diff')
    .summary('what changed between two baselines, logs or sessions: tools, capabilities, latency, findings')
    .description(
      'Compares A with B, each a baseline file (mcp-tap baseline save), a log (its last session) or one session of a log ' +
        '(file#session): tools, resources, resource templates and prompts added, removed or changed (schemas, descriptions, ' +
        'annotations), capabilities and protocol version changed, latency regressions (median at least --ratio times and ' +
        '--min-ms slower, per method and per tool), finding codes new in B, the tokens each tool definition costs before and ' +
        'after, and tool changes that weaken safety (readOnlyHint dropped, destructive now…). See docs/check.md.',
    )
    .argument('<a>', 'the old side: a baseline, a log, or log#session')
    .argument('<b>', 'the new side: a baseline, a log, or log#session')
    .option('--format <format>', 'text or json', 'text')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--ratio <x>', 'latency regression: B median ≥ x × A median', String(DEFAULT_RATIO))
    .option('--min-ms <ms>', 'latency regression: and B median ≥ A median + ms', String(DEFAULT_MIN_MS))
    .option('--exit-code', 'exit 1 when there is any difference');
  addRedactFlags(cmd, 'show names and texts exactly as logged, secrets included (default: redacted as by export)')
    .action(async (a: string, b: string, opts: DiffCliOptions & RedactSwitch) => {
      const redact = outputRedaction(opts);
      const format = opts.format.toLowerCase();
      if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, got ${JSON.stringify(opts.format)}`);
      const ratio = number('--ratio', opts.ratio, 1);
      const minMs = number('--min-ms', opts.minMs, 0);
      const left = await loadBaseline(a, warn);
      const right = await loadBaseline(b, warn);
      const result = redact(diffBaselines(left.baseline, right.baseline, { ratio, minMs, tokenizer: await loadTokenizer() }));
      const sides = redact([{ label: left.label, baseline: left.baseline }, { label: right.label, baseline: right.baseline }] as const);
      const text = format === 'json' ? renderDiffJson(result, ...sides) : renderDiffText(result, ...sides);
      await writeOutput(opts.output, [text], process.stdout, format === 'json' ? 'data' : 'text');
      if (opts.exitCode && result.differences.length > 0) setExitCode(1);
    });
}
