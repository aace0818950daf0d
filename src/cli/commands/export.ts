/** `mcp-tap export`: a session as Markdown for a bug report, or its records as JSON / JSON Lines; redacted by default. */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { LogRecord } from '../../log/record.js';
import { jsonChunks, jsonlChunks } from '../../transcript/json-export.js';
import { DEFAULT_MAX_BODY, markdownChunks } from '../../transcript/markdown.js';
import { collect, openInput } from '../../transcript/read-input.js';
import type { RecordRedactor } from '../../transcript/redact.js';
import { addRedactFlags, redactorFrom, type RedactSwitch } from '../../transcript/redact-options.js';
import { writeOutput } from '../../transcript/write-output.js';
import { VERSION } from '../../version.js';
import { warn } from '../stderr.js';

interface ExportCliOptions extends RedactSwitch {
  session: string;
  format: string;
  output?: string;
  maxBody: string;
  otlpContent?: boolean;
}

const FORMATS = ['md', 'json', 'jsonl', 'html', 'otlp'] as const;
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
    .option('--format <format>', 'md, json, jsonl, html (a self-contained waterfall report: docs/report.md) or otlp (OTLP/JSON traces: docs/observability.md)', 'md')
    .option('--otlp-content', 'otlp: tool arguments and results as span attributes (redacted unless --no-redact)')
    .option('-o, --output <file>', 'write to this file (atomically, mode 0600) instead of stdout');
  addRedactFlags(cmd)
    .option('--max-body <chars>', 'Markdown: shorten bodies longer than this', String(DEFAULT_MAX_BODY))
    .action(async (file: string | undefined, opts: ExportCliOptions) => {
      const format = opts.format.toLowerCase();
      if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(opts.format)}`);
      if (!/^\d+$/.test(opts.maxBody) || Number(opts.maxBody) < 200) throw new UsageError(`--max-body takes a number of characters ≥ 200, got ${JSON.stringify(opts.maxBody)}`);
      const redactor = redactorFrom(opts);
      const input = await openInput({ file, session: opts.session, warn });
      const records = redacted(input.records, redactor);
      const chunks = await render(format as Format, records, { redacted: redactor !== null, maxBody: Number(opts.maxBody), otlpContent: opts.otlpContent === true });
      await writeOutput(opts.output, chunks);
      if (opts.output !== undefined && opts.output !== '-' && !opts.redact) warn(`${opts.output} is NOT redacted: check it before you share it`);
    });
}

async function render(
  format: Format,
  records: AsyncGenerator<LogRecord>,
  o: { redacted: boolean; maxBody: number; otlpContent: boolean },
): Promise<Iterable<string> | AsyncIterable<string>> {
  switch (format) {
    case 'jsonl':
      return jsonlChunks(records);
    case 'json':
      return jsonChunks(records);
    case 'md': {
      // Markdown pairs answers with their requests across the session, so it needs the session whole
      const all = await collect(records);
      return markdownChunks(all, { redacted: o.redacted, exporterVersion: VERSION, maxBody: o.maxBody });
    }
    case 'html': {
      // the waterfall report (src/report) also needs the session whole; loaded only when asked for
      const all = await collect(records);
      const { reportChunks } = await import('../../report/page.js');
      return reportChunks(all, { redacted: o.redacted, exporterVersion: VERSION });
    }
    case 'otlp': {
      const { otlpChunks } = await import('../../otlp/export-otlp.js');
      return otlpChunks(records, { content: o.otlpContent, env: process.env });
    }
  }
}
