/** `mcp-tap export`: a session as Markdown for a bug report, or its records as JSON / JSON Lines; redacted by default. */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { LogRecord } from '../../log/record.js';
import { jsonChunks, jsonlChunks } from '../../transcript/json-export.js';
import { DEFAULT_MAX_BODY, markdownChunks } from '../../transcript/markdown.js';
import { contextNeedsBody } from '../../lens/context/context-cost.js';
import { loadTokenizer } from '../../lens/context/tokenizer.js';
import { lensStage } from '../../lens/lenses.js';
import { findLatestLog } from '../../log/log-files.js';
import { readSession, resolveSession } from '../../log/read-session.js';
import { openInput } from '../../transcript/read-input.js';
import { SAMPLE_ABOVE, SamplePlanner, SampleSelector } from '../../transcript/sampling.js';
import { summaryNeedsBody } from '../../transcript/summary.js';
import { progressFor } from '../../view/progress-line.js';
import type { RecordRedactor } from '../../transcript/redact.js';
import { addRedactFlags, redactorFrom, type RedactSwitch } from '../../transcript/redact-options.js';
import { writeOutput } from '../../transcript/write-output.js';
import { VERSION } from '../../version.js';
import { warn } from '../stderr.js';

interface ExportCliOptions extends RedactSwitch {
  session: string;
  full?: boolean;
  format: string;
  output?: string;
  maxBody: string;
  otlpContent?: boolean;
}

const FORMATS = ['md', 'json', 'jsonl', 'html', 'otlp', 'har'] as const;
type Format = (typeof FORMATS)[number];

async function* redacted(records: AsyncIterable<LogRecord>, redactor: RecordRedactor | null): AsyncGenerator<LogRecord> {
  for await (const r of records) yield redactor ? redactor.next(r) : r;
}

export function define(program: Command): void {
  const cmd = program
    .command('export')
    .summary('a session as Markdown for a bug report, or as JSON / JSON Lines (redacted)')
    .description(
      'Writes a session of a log (default: the last session of the most recent log) as Markdown to paste into an issue — ' +
        'header, summary, the conversation with folded bodies, the server\'s stderr — or its records as JSON or JSON Lines. ' +
        'Secrets are redacted unless --no-redact: secret-named keys, token shapes, secret command-line flags, and the values ' +
        'of secret-looking environment variables of this shell. See docs/export.md.',
    )
    .argument('[file]', 'the log file (default: the most recently written log in the default log directory)')
    .option('--session <which>', "'last', 'all', or a session id (or unique prefix)", 'last')
    .option('--format <format>', 'md, json, jsonl, html (a self-contained waterfall report: docs/report.md), otlp (OTLP/JSON traces: docs/observability.md) or har (HAR 1.2 of an HTTP-mode run: docs/export.md)', 'md')
    .option('--otlp-content', 'otlp: tool arguments and results as span attributes (redacted unless --no-redact)')
    .option('-o, --output <file>', 'write to this file (atomically, mode 0600) instead of stdout');
  addRedactFlags(cmd)
    .option('--max-body <chars>', 'Markdown: shorten bodies longer than this', String(DEFAULT_MAX_BODY))
    .option('--full', `Markdown and HTML: every record, also of a session of more than ${SAMPLE_ABOVE} records (shown in part by default)`)
    .action(async (file: string | undefined, opts: ExportCliOptions) => {
      const format = opts.format.toLowerCase();
      if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(opts.format)}`);
      if (!/^\d+$/.test(opts.maxBody) || Number(opts.maxBody) < 200) throw new UsageError(`--max-body takes a number of characters ≥ 200, got ${JSON.stringify(opts.maxBody)}`);
      const redactor = redactorFrom(opts);
      const o = { redacted: redactor !== null, maxBody: Number(opts.maxBody) };
      let chunks: Iterable<string> | AsyncIterable<string>;
      if (format === 'md' || format === 'html') {
        chunks = await renderPage(format, file, opts, o);
      } else if (format === 'har') {
        const { harChunks } = await import('../../transcript/har-export.js');
        chunks = await harChunks(file ?? (await findLatestLog()), opts.session, redactor, { version: VERSION, warn });
      } else {
        const input = await openInput({ file, session: opts.session, warn });
        chunks = await renderRecords(format as 'json' | 'jsonl' | 'otlp', redacted(input.records, redactor), opts.otlpContent === true);
      }
      await writeOutput(opts.output, chunks, process.stdout, format === 'md' ? 'text' : 'data');
      if (opts.output !== undefined && opts.output !== '-' && !opts.redact) warn(`${opts.output} is NOT redacted: check it before you share it`);
    });
}

/**
 * Markdown and HTML pair answers with requests across a session, so they render from records in memory:
 * the whole session when it is short, else a sample of it (src/transcript/sampling.ts) with the summary of
 * the whole. Three passes over the log: which session, its summary and plan, the records to show.
 */
async function renderPage(format: 'md' | 'html', file: string | undefined, opts: ExportCliOptions, o: { redacted: boolean; maxBody: number }): Promise<Iterable<string>> {
  const path = file ?? (await findLatestLog());
  const ids = (await resolveSession(path, opts.session)).map((s) => s.id);
  const one = opts.session !== 'all';
  const progress = progressFor(path);
  try {
    // pass 1: summaries (of redacted records: the header shows command lines and client info)
    const planner = new SamplePlanner(opts.full === true, await loadTokenizer());
    const r1 = redactorFrom(opts);
    const needsBody = (h: LogRecord) => summaryNeedsBody(h) || contextNeedsBody(h) || SamplePlanner.needsBody(h);
    const first = readSession(path, one ? ids[0]! : 'all', { resolved: one, needsBody, onProgress: progress.update, stage: lensStage() });
    for await (const r of first) planner.add(r1 ? r1.next(r) : r);
    const plans = planner.finish();
    // pass 2: the records to show, bodies parsed only for them; stderr always goes through the redactor (its state spans lines)
    const selector = new SampleSelector(plans);
    const redactor = redactorFrom(opts);
    const input = await openInput({ file: path, session: one ? ids[0]! : 'all', resolved: one, warn, needsBody: (h) => selector.needsBody(h), onProgress: progress.update });
    const kept: LogRecord[] = [];
    for await (const r of input.records) {
      const keep = selector.take(r);
      if (r.kind === 'stderr' && redactor) {
        const red = redactor.next(r);
        if (keep) kept.push(red);
      } else if (keep) kept.push(redactor ? redactor.next(r) : r);
    }
    progress.done();
    if (format === 'md') return markdownChunks(kept, { redacted: o.redacted, exporterVersion: VERSION, maxBody: o.maxBody, plans });
    // the waterfall report (src/report) is loaded only when asked for
    const { reportChunks } = await import('../../report/page.js');
    return reportChunks(kept, { redacted: o.redacted, exporterVersion: VERSION, plans });
  } finally {
    progress.done();
  }
}

/** The formats that stream records as they are read. */
async function renderRecords(format: 'json' | 'jsonl' | 'otlp', records: AsyncGenerator<LogRecord>, otlpContent: boolean): Promise<AsyncIterable<string>> {
  switch (format) {
    case 'jsonl':
      return jsonlChunks(records);
    case 'json':
      return jsonChunks(records);
    case 'otlp': {
      const { otlpChunks } = await import('../../otlp/export-otlp.js');
      return otlpChunks(records, { content: otlpContent, env: process.env });
    }
  }
}
