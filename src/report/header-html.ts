/**
 * The top of a session in the report: the same header and summary as the Markdown export (from
 * transcript/summary.ts), as static HTML so they read even without the script. Pure.
 */
import type { ContextCost, DefinitionCost } from '../lens/context/context-cost.js';
import type { PendingRequest } from '../log/record.js';
import { formatMs } from '../transcript/format.js';
import type { SessionHeader } from '../transcript/session-header.js';
import type { SessionSummary } from '../transcript/summary.js';
import { escapeHtml, visibleText } from './safe-json.js';
import { headerRows as sharedHeaderRows } from '../transcript/header-rows.js';

const DASH = '—';

/** Wire or log text as escaped HTML inside `<code>`. */
function code(text: string): string {
  return `<code>${escapeHtml(visibleText(text))}</code>`;
}

function dir(from: string): string {
  return from === 'client' ? 'client → server' : from === 'server' ? 'server → client' : 'mcp-tap';
}

function idText(id: unknown): string {
  return code(id === undefined ? '(none)' : (JSON.stringify(id) ?? String(id)));
}

/** Links into the page script: a click selects the request in the waterfall and the list. */
function seqLink(seq: number): string {
  return `<a href="#seq-${seq}" class="goto" data-goto="${seq}">#${seq}</a>`;
}

/** Label → HTML value, in the Markdown export's order (shared rows, HTML escaping). */
export function headerRows(h: SessionHeader): Array<[string, string]> {
  return sharedHeaderRows(h, { code, text: escapeHtml, dash: DASH });
}

function pendingItem(p: PendingRequest): string {
  return `<li>${seqLink(p.seq)} ${dir(p.from)} ${code(p.method)} id ${idText(p.id)}</li>`;
}

/** Requests shown in the summary before the rest fold away. */
const LISTED = 8;

/** A list of requests: the first few, the rest folded in a `<details>`. */
function pendingList(list: readonly PendingRequest[], total: number): string {
  const head = list.slice(0, LISTED).map(pendingItem).join('');
  const rest = list.slice(LISTED);
  const more = total - list.length;
  let out = `<ul>${head}</ul>`;
  if (rest.length > 0) out += `<details><summary>${rest.length} more</summary><ul>${rest.map(pendingItem).join('')}</ul></details>`;
  if (more > 0) out += `<p>… and ${more} more not listed in the log's end record</p>`;
  return out;
}

function countCell(label: string, n: number, bad = false): string {
  return `<tr${bad && n > 0 ? ' class="bad"' : ''}><th scope="row">${label}</th><td>${n}</td></tr>`;
}

const tok = (n: number, est?: boolean): string => `${est ? '~' : ''}${n.toLocaleString('en-US')}`;

/** What the session costs the model's context, as a table (the figures `stats` prints). */
function contextTable(c: ContextCost): string {
  const top = (items: readonly DefinitionCost[]) =>
    [...items]
      .sort((a, b) => b.tokens - a.tokens)
      .slice(0, 5)
      .map((d) => `${code(d.name)} ${tok(d.tokens, d.estimated)}`)
      .join(', ');
  const rows: Array<[string, string]> = [['Before the first message', `${tok(c.beforeFirstMessage)} tokens`]];
  if (c.tools) rows.push([`Tool definitions (${c.tools.count})`, `${tok(c.tools.total.tokens, c.tools.total.estimated)} — most: ${top(c.tools.items) || DASH}`]);
  if (c.instructions) rows.push(['Instructions', tok(c.instructions.tokens, c.instructions.estimated)]);
  if (c.tools && c.neverCalled.length > 0) rows.push([`Never called (${c.neverCalled.length})`, `${tok(c.neverCalled.reduce((n, d) => n + d.tokens, 0))} — ${top(c.neverCalled)}`]);
  if (c.results.count > 0) {
    rows.push([`Tool results (${c.results.count})`, tok(c.results.tokens)]);
    rows.push(['Largest results', c.largestResults.map((r) => `${seqLink(r.seq)} ${code(r.tool)} ${tok(r.tokens, r.estimated)}`).join(', ')]);
  }
  const body = rows.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${v}</td></tr>`).join('');
  return `<table class="kv context"><caption>Context cost (tokens, ${escapeHtml(c.tokenizer)}; an estimate for other models)</caption><tbody>${body}</tbody></table>`;
}

/** Header table and summary of one session; with its context cost when the export measured it. */
export function renderHeaderHtml(s: SessionSummary, context?: ContextCost): string {
  const out: string[] = [];
  out.push('<div class="head-grid"><table class="kv"><caption>Session</caption><tbody>');
  for (const [k, v] of headerRows(s.header)) out.push(`<tr><th scope="row">${k}</th><td>${v}</td></tr>`);
  out.push('</tbody></table>');
  const k = s.kinds;
  out.push(
    '<table class="counts"><caption>Summary</caption><tbody>',
    countCell('Requests', k.request),
    countCell('Responses', k.response),
    countCell('Error responses', s.errors, true),
    ...(s.refusedProbes > 0 ? [countCell('Refused discovery probes (fallback)', s.refusedProbes)] : []),
    countCell('Notifications', k.notification),
    countCell('Batches', k.batch),
    countCell('Invalid lines', k.invalid, true),
    countCell('stderr lines', k.stderr),
    countCell('isError results', s.isErrorResults, true),
    countCell('Findings', s.findings.total, true),
    countCell('Unanswered requests', s.unansweredCount, true),
    ...(s.tasks.count > 0 ? [countCell('Calls answered with a task', s.tasks.count), countCell('Tasks still running', s.tasks.runningCount)] : []),
    '</tbody></table>',
  );
  out.push('<div class="lists">');
  if (context) out.push(contextTable(context));
  if (s.lost > 0) out.push(`<p class="warn">The log could not keep ${s.lost} record(s) of this session.</p>`);
  if (s.slowest.length > 0) {
    out.push('<table class="slowest"><caption>Slowest calls</caption><thead><tr><th>#</th><th>Method</th><th>Target</th><th>Latency</th><th>Outcome</th></tr></thead><tbody>');
    for (const c of s.slowest) {
      out.push(
        `<tr><td>${seqLink(c.reqSeq ?? c.seq)}</td><td>${code(c.method)}</td><td>${c.target !== undefined ? code(c.target) : ''}</td><td class="num">${escapeHtml(formatMs(c.ms))}</td><td><span class="pill o-${c.outcome === 'result' ? 'ok' : c.outcome}">${c.outcome === 'result' ? 'ok' : c.outcome === 'refused' ? 'refused probe' : c.outcome}</span>${c.task ? ' task' : ''}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
  if (s.findings.byCode.length > 0) {
    out.push('<div class="block"><h3>Findings by code</h3><ul>');
    for (const f of s.findings.byCode) out.push(`<li>${code(f.code)} × ${f.count}</li>`);
    out.push('</ul></div>');
  }
  if (s.unanswered.length > 0) {
    out.push('<div class="block"><h3>Unanswered requests</h3>', pendingList(s.unanswered, s.unansweredCount), '</div>');
  }
  if (s.cancelled.length > 0) {
    out.push('<div class="block"><h3>Cancelled, never answered</h3>', pendingList(s.cancelled, s.cancelled.length), '</div>');
  }
  if (s.tasks.running.length > 0) {
    const items = s.tasks.running.map((t) => ({ from: t.from, id: t.id as PendingRequest['id'], method: `${t.method} (task ${t.taskId}: ${t.status})`, seq: t.seq }));
    out.push('<div class="block"><h3>Tasks still running at the end</h3>', pendingList(items, s.tasks.runningCount), '</div>');
  }
  out.push('</div></div>');
  return out.join('\n');
}

