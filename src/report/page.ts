/**
 * `mcp-tap export --format html`: one self-contained HTML file — inline style and script, the data as
 * JSON in a script element, no request for anything outside the file (a Content-Security-Policy says
 * so too). Pure: records (already redacted, or not) in, text out, piece by piece so a long session is
 * never one huge string on the way to the file.
 */
import type { LogRecord } from '../log/record.js';
import { sampleNotice, sampleOmittedLines, type SessionPlan } from '../transcript/sampling.js';
import { groupSessions } from '../transcript/summary.js';
import type { ContextCost } from '../lens/context/context-cost.js';
import { renderHeaderHtml } from './header-html.js';
import { buildSessionModel, type SessionModel } from './model.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_CSS } from './page-style.js';
import { DEFAULT_BODY_LIMITS, encodeRow, type BodyLimits, type BodyMeter } from './rows.js';
import { isQuietExchange } from '../log/http-records.js';
import { sessionViewHtml } from '../session-view/markup.js';
import { escapeHtml, jsonForScript, visibleText } from './safe-json.js';

export interface ReportOptions {
  /** Whether the records were redacted; the page says so either way. */
  redacted: boolean;
  /** The mcp-tap that exports. */
  exporterVersion: string;
  /** Body size limits (see rows.ts). */
  limits?: Partial<BodyLimits>;
  /** Long sessions shown in part: their whole-session summaries and how they were sampled. */
  plans?: readonly SessionPlan[];
}

/** Rows per chunk of output. */
const ROWS_PER_CHUNK = 500;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** A sampled session's notice, with a line per kind of bad record it left out. */
function noticeHtml(n: { text: string; more: string[] } | undefined): string {
  if (n === undefined) return '';
  const more = n.more.length > 0 ? `<ul class="notice omitted">${n.more.map((l) => `<li>${escapeHtml(visibleText(l))}</li>`).join('')}</ul>` : '';
  return `<p class="notice">${escapeHtml(n.text)}</p>${more}`;
}

function pageTop(models: readonly SessionModel[], opts: ReportOptions, notices: ReadonlyArray<{ text: string; more: string[] } | undefined>, contexts: ReadonlyArray<ContextCost | undefined> = []): string {
  const name = models.length === 1 ? models[0]!.name : `${models.length} sessions`;
  const title = models.length <= 1 ? `MCP session <code>${escapeHtml(visibleText(name))}</code>` : `MCP sessions (${models.length})`;
  const notice = opts.redacted
    ? `<p class="notice">Exported by mcp-tap ${escapeHtml(opts.exporterVersion)}. Secrets are redacted: values under secret-named keys, token shapes, secret command-line flags and known environment values read <code>[REDACTED:&lt;why&gt;]</code>. This file makes no network requests.</p>`
    : `<p class="notice danger">Exported by mcp-tap ${escapeHtml(opts.exporterVersion)} WITHOUT redaction (--no-redact): this report may contain secrets.</p>`;
  const picker =
    models.length > 1
      ? `<label class="picker">Session <select id="session-pick">${models
          .map((m, i) => `<option value="${i}">${i + 1}. ${escapeHtml(visibleText(m.name))} · ${escapeHtml(visibleText(m.id))}</option>`)
          .join('')}</select></label>`
      : '';
  const heads = models
    .map(
      (m, i) =>
        `<section class="card session-head" data-session="${i}"${i > 0 ? ' hidden' : ''}>${
          models.length > 1 ? `<div class="card-head"><h2>Session ${i + 1} of ${models.length}: <code>${escapeHtml(visibleText(m.name))}</code></h2></div>` : ''
        }${renderHeaderHtml(m.summary, contexts[i])}${noticeHtml(notices[i])}</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mcp-tap ${escapeHtml(opts.exporterVersion)}">
<title>mcp-tap report: ${escapeHtml(visibleText(name))}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<div class="page">
<header class="title"><h1>${title}</h1>${notice}${picker}</header>
${models.length === 0 ? '<section class="card"><p class="wf-empty">The log holds no records for this session.</p></section>' : heads}
${sessionViewHtml({ bodies: true, waiting: '<noscript><p class="wf-empty">The waterfall and the message list need JavaScript; the header and summary above are complete without it.</p></noscript>' })}
<footer>Made by mcp-tap ${escapeHtml(opts.exporterVersion)} from the session log. Times are since the session started.</footer>
</div>
<script type="application/json" id="report-data">`;
}

/** `items` as the elements of a JSON array, a slice at a time. */
function* jsonList<T>(items: readonly T[], encode: (x: T) => string): Generator<string> {
  for (let i = 0; i < items.length; i += ROWS_PER_CHUNK) {
    const part = items.slice(i, i + ROWS_PER_CHUNK).map(encode).join(',\n');
    yield i === 0 ? part : `,\n${part}`;
  }
}

function* sessionChunks(m: SessionModel, limits: BodyLimits, meter: BodyMeter): Generator<string> {
  const head = { id: m.id, name: m.name, origin: m.origin, duration: m.duration };
  yield `${jsonForScript(head).slice(0, -1)},"rows":[\n`;
  yield* jsonList(m.records, (r) => encodeRow(r, m.origin, limits, meter));
  yield '\n]}';
}

/** The report, piece by piece (write them in order). One page for all the sessions given. */
export function* reportChunks(records: readonly LogRecord[], opts: ReportOptions): Generator<string> {
  const limits: BodyLimits = { ...DEFAULT_BODY_LIMITS, ...opts.limits };
  const meter: BodyMeter = { used: 0, shortened: 0 };
  const plans = opts.plans ?? [];
  const notices: Array<{ text: string; more: string[] } | undefined> = [];
  const contexts: Array<ContextCost | undefined> = [];
  const models = groupSessions(records.filter((r) => !isQuietExchange(r))).map((recs) => {
    const plan = plans.find((p) => p.session === recs[0]?.session);
    const text = plan ? sampleNotice(plan, recs.length) : undefined;
    notices.push(text !== undefined ? { text, more: sampleOmittedLines(plan) } : undefined);
    contexts.push(plan?.context);
    return buildSessionModel(recs, plan?.summary);
  });
  yield pageTop(models, opts, notices, contexts);
  yield `{"version":${jsonForScript(opts.exporterVersion)},"redacted":${opts.redacted},"sessions":[`;
  for (let i = 0; i < models.length; i++) {
    if (i > 0) yield ',';
    yield* sessionChunks(models[i]!, limits, meter);
  }
  yield `]}</script>\n<script>${PAGE_SCRIPT}</script>\n</body>\n</html>\n`;
}

/** The whole report as one string (tests, small sessions). */
export function renderReport(records: readonly LogRecord[], opts: ReportOptions): string {
  return [...reportChunks(records, opts)].join('');
}
