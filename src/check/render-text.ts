/** `mcp-tap check --format text`: the verdict, the session at a glance, then every result in log order. */
import { formatMs } from '../transcript/format.js';
import { escapeControl } from '../text/escape.js';
import { failsOn } from './fail-on.js';
import { RESULTS_PER_RULE } from './facts.js';
import { omittedResultText } from './omitted.js';
import type { CheckReport, Problem } from './report.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function mark(report: CheckReport, p: Problem): string {
  if (p.category === 'info') return '·';
  return failsOn(report.failOn, p.category) ? '✗' : '!';
}

function where(p: Problem): string {
  if (p.line === undefined) return '';
  return `line ${p.line}${p.seq !== undefined && p.seq !== p.line ? ` (seq ${p.seq})` : ''}`;
}

/** The report as plain text (wire text escaped so it cannot break lines or drive a terminal). */
export function renderText(report: CheckReport): string {
  const s = report.summary;
  const out: string[] = [];
  const verdict = report.passed ? 'PASS' : 'FAIL';
  const failing =
    report.problems.filter((p) => failsOn(report.failOn, p.category)).length +
    report.omittedResults.filter((o) => failsOn(report.failOn, o.category)).reduce((n, o) => n + o.count, 0);
  out.push(`mcp-tap check: ${verdict}${failing > 0 ? ` — ${plural(failing, 'failing result')}` : ''}`);
  out.push(`  log       ${escapeControl(report.log)}${report.session ? `  (session ${escapeControl(report.session)})` : ''}`);
  const srv = report.server;
  if (srv.name !== undefined || srv.protocolVersion !== undefined) {
    const who = [srv.name, srv.version].filter((x) => x !== undefined && x.trim() !== '').join(' ') || '(no serverInfo)';
    out.push(`  server    ${escapeControl(who)}${srv.protocolVersion ? ` · protocol ${escapeControl(srv.protocolVersion)}` : ''}`);
  }
  if (srv.command !== undefined) out.push(`  command   ${escapeControl([srv.command, ...(srv.args ?? [])].join(' '))}`);
  const glance: string[] = [];
  const probe = report.requests.find((r) => r.status === 'refused-probe');
  const probeText = probe ? `server/discover refused (${probe.error?.code ?? '?'})` : undefined;
  if (s.initializeMs !== null) glance.push(`initialize ${formatMs(s.initializeMs)}${probeText ? ` (fallback: ${probeText})` : ''}`);
  else if (srv.era === 'stateless') glance.push('stateless (server/discover)');
  else glance.push(probeText ? `${probeText} · initialize: no answer` : 'initialize: no answer');
  if (s.tools !== null) glance.push(plural(s.tools, 'tool'));
  if (s.resources !== null) glance.push(plural(s.resources, 'resource'));
  if (s.prompts !== null) glance.push(plural(s.prompts, 'prompt'));
  out.push(`  session   ${glance.join(' · ')}`);
  out.push(
    `  requests  ${s.requests}: ${s.answered} answered, ${plural(s.errors, 'error')}, ${s.isError} isError, ${s.unanswered} unanswered` +
      `${s.cancelled > 0 ? `, ${s.cancelled} cancelled` : ''}${s.tasks > 0 ? `, ${plural(s.tasks, 'task')} (${s.tasksRunning} still running)` : ''}${s.durationMs !== null ? ` · ${formatMs(s.durationMs)} in all` : ''}`,
  );
  out.push(`  checks    ${plural(s.findings, 'finding')}, ${plural(s.specViolations, 'spec violation')}, ${plural(s.security, 'security finding')}, ${plural(s.schemaProblems, 'schema problem')}, ${plural(s.assertionsFailed, 'failed assertion')}`);
  const ctx = report.context;
  if (ctx) {
    const est = ctx.tools?.total.estimated || ctx.instructions?.estimated ? ' (estimated)' : '';
    out.push(`  context   ${ctx.beforeFirstMessage.toLocaleString('en-US')} tokens before the first message${est} (${ctx.tokenizer}) · ${plural(ctx.results.count, 'tool result')}, ${ctx.results.tokens.toLocaleString('en-US')} tokens`);
  }

  if (report.problems.length > 0) {
    out.push('', 'results (✗ fails the check, ! reported only, · informational):');
    const width = Math.min(30, Math.max(...report.problems.map((p) => p.ruleId.length)));
    const locWidth = Math.max(...report.problems.map((p) => where(p).length));
    for (const p of report.problems) {
      out.push(`  ${mark(report, p)} ${escapeControl(p.ruleId).padEnd(width)}  ${where(p).padEnd(locWidth)}  ${escapeControl(p.message)}`);
    }
  }
  if (report.omittedResults.length > 0) {
    out.push('', `more results, counted (the list holds the first ${RESULTS_PER_RULE.toLocaleString('en-US')} of each rule and error code):`);
    for (const o of report.omittedResults) out.push(`  ${mark(report, { ruleId: o.ruleId, category: o.category, message: '' })} ${escapeControl(omittedResultText(o))}`);
  }
  if (report.assertions.length > 0) {
    out.push('', 'assertions:');
    for (const a of report.assertions) {
      const extra = a.matched !== undefined ? ` (${plural(a.matched, 'request')})` : '';
      out.push(`  ${a.passed ? '✓' : '✗'} ${escapeControl(a.flag)}${extra}${a.passed ? '' : ` — ${plural(a.failures, 'failure')}`}`);
    }
  }
  if (report.warnings.length > 0) {
    out.push('', 'notes:');
    for (const w of report.warnings) out.push(`  - ${escapeControl(w)}`);
  }
  out.push('');
  const failOn = report.failOn.length > 0 ? report.failOn.join(',') : 'none';
  out.push(report.passed ? `PASS (--fail-on ${failOn})` : `FAIL: ${report.failed.join(', ')} (--fail-on ${failOn})`);
  return `${out.join('\n')}\n`;
}
