/**
 * `mcp-tap check --format junit`: JUnit XML for CI test reporters. Suites: one testcase per request
 * (failed when it got an error, an isError result, no answer, or broke an assertion), one per finding
 * code (failed when it occurred), one per listed tool (failed on schema problems), one per assertion.
 */
import { securityRule } from '../lens/security/rules.js';
import { shareResults } from '../log/keep-first.js';
import { omittedResultText } from './omitted.js';
import type { CheckReport, Problem, RequestOutcome, RequestStatus } from './report.js';
import { allRules, FINDING_CATEGORIES, type Category } from './rules.js';
import { xmlAttr, xmlEscape } from './xml.js';

/** Request testcases per file; past it each status keeps a share and the rest are counted in system-out. */
export const JUNIT_MAX_REQUESTS = 5000;

interface Case {
  classname: string;
  name: string;
  /** Seconds. */
  time?: number;
  failures: Problem[];
  /** Informational results (not failures). */
  out?: string[];
  /** Results of this case left out of the report: `… and 99,000 more before-initialize findings`. */
  more?: string[];
}

const seconds = (ms: number | undefined): number | undefined => (ms === undefined ? undefined : ms / 1000);

function requestName(r: RequestOutcome): string {
  const target = r.target !== undefined ? ` ${JSON.stringify(r.target)}` : '';
  return `seq ${r.seq}: ${r.method}${target} (id ${JSON.stringify(r.id)})`;
}

function where(p: Problem): string {
  return p.line !== undefined ? ` [line ${p.line}${p.seq !== undefined ? `, seq ${p.seq}` : ''}]` : '';
}

function renderCase(c: Case): string {
  const time = c.time !== undefined ? ` time="${c.time.toFixed(3)}"` : '';
  const head = `    <testcase classname="${xmlAttr(c.classname)}" name="${xmlAttr(c.name)}"${time}`;
  const parts: string[] = [];
  const first = c.failures[0];
  const more = c.more ?? [];
  if (first) {
    const body = [...c.failures.map((p) => `${p.ruleId}: ${p.message}${where(p)}`), ...more].join('\n');
    parts.push(`      <failure type="${xmlAttr(first.ruleId)}" message="${xmlAttr(first.message)}">${xmlEscape(body)}</failure>`);
  }
  const out = [...(c.out ?? []), ...(first ? [] : more)];
  if (out.length > 0) parts.push(`      <system-out>${xmlEscape(out.join('\n'))}</system-out>`);
  return parts.length === 0 ? `${head}/>` : `${head}>\n${parts.join('\n')}\n    </testcase>`;
}

function renderSuite(name: string, cases: Case[], note?: string): string {
  const failures = cases.filter((c) => c.failures.length > 0).length;
  const time = cases.reduce((t, c) => t + (c.time ?? 0), 0);
  const head = `  <testsuite name="${xmlAttr(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${time.toFixed(3)}"`;
  const out = note !== undefined ? `\n    <system-out>${xmlEscape(note)}</system-out>` : '';
  if (cases.length === 0 && out === '') return `${head}/>`;
  return `${head}>${cases.length > 0 ? `\n${cases.map(renderCase).join('\n')}` : ''}${out}\n  </testsuite>`;
}

/** Said where a long session's requests are left out, by status (docs/check.md). */
export function omittedNote(byStatus: ReadonlyMap<string, number>): string | undefined {
  const lines: string[] = [];
  const ok = byStatus.get('ok') ?? 0;
  if (ok > 0) lines.push(`… and ${ok} more passing request${ok === 1 ? '' : 's'} (a long session lists its first requests and those that did not pass)`);
  for (const [status, n] of byStatus) {
    if (status !== 'ok' && n > 0) lines.push(`… and ${n} more request${n === 1 ? '' : 's'} with status ${status} (counted in the summary; their results in the other suites)`);
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** The request testcases that fit (in log order), with the counts of those that do not added to `left`. */
function fitRequests(requests: readonly RequestOutcome[], left: Map<string, number>): Array<[RequestOutcome, number]> {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const share = shareResults(counts, JUNIT_MAX_REQUESTS);
  const out: Array<[RequestOutcome, number]> = [];
  requests.forEach((r, i) => {
    const room = share.get(r.status)!;
    if (room > 0) {
      share.set(r.status, room - 1);
      out.push([r, i]);
    } else left.set(r.status, (left.get(r.status) ?? 0) + 1);
  });
  return out;
}

/** The report as a JUnit XML document. */
export function renderJunit(report: CheckReport): string {
  const byRequest = new Map<number, Problem[]>();
  for (const p of report.problems) {
    if (p.request === undefined) continue;
    const list = byRequest.get(p.request);
    if (list) list.push(p);
    else byRequest.set(p.request, [p]);
  }
  const left = new Map<string, number>(Object.entries(report.omittedRequestsByStatus) as Array<[RequestStatus, number]>);
  const requests: Case[] = fitRequests(report.requests, left).map(([r, i]) => {
    const c: Case = { classname: `mcp-tap.requests.${r.from}`, name: requestName(r), failures: byRequest.get(i) ?? [] };
    const t = seconds(r.ms);
    if (t !== undefined) c.time = t;
    if (r.status === 'cancelled') c.out = [r.task ? 'its task was cancelled' : 'cancelled by the requester; no answer expected'];
    if (r.status === 'task-running') c.out = [`its task (${r.task?.status ?? 'working'}) was still running when the session ended`];
    if (r.status === 'refused-probe') c.out = [`discovery probe refused (${r.error?.code ?? '?'}): the client falls back to initialize`];
    return c;
  });

  // every finding code this version knows (passing when absent), then codes only a newer log has
  const isFinding = (c: Category) => FINDING_CATEGORIES.includes(c) || c === 'info';
  const findingCodes = allRules().filter((r) => isFinding(r.category));
  const codes = new Map(findingCodes.map((r) => [r.id, r.category]));
  for (const p of report.problems) if (isFinding(p.category) && !codes.has(p.ruleId)) codes.set(p.ruleId, p.category);
  const moreOf = (ruleId: string) => report.omittedResults.filter((o) => o.ruleId === ruleId).map(omittedResultText);
  for (const o of report.omittedResults) if (isFinding(o.category) && !codes.has(o.ruleId)) codes.set(o.ruleId, o.category);
  /** A code's testcase: its listed results, then how many more the report counted. */
  const codeCase = (classname: string, code: string, category: Category): Case => {
    const hits = report.problems.filter((p) => p.ruleId === code);
    if (category === 'info') return { classname, name: code, failures: [], out: hits.map((p) => `${p.message}${where(p)}`), more: moreOf(code) };
    const more = moreOf(code);
    // every occurrence past the report's total limit: still a failure, said by the count
    const failures = hits.length > 0 || more.length === 0 ? hits : [{ ruleId: code, category, message: more[0]! }];
    return { classname, name: code, failures, more: hits.length > 0 ? more : more.slice(1) };
  };
  const findings: Case[] = [...codes].map(([code, category]) => codeCase('mcp-tap.findings', code, category));

  // one testcase per security rule of a session (audit's rules belong to `mcp-tap audit`)
  const securityCodes = new Set(allRules().filter((r) => r.category === 'security' && securityRule(r.id)?.scope === 'session').map((r) => r.id));
  for (const p of report.problems) if (p.category === 'security') securityCodes.add(p.ruleId);
  for (const o of report.omittedResults) if (o.category === 'security') securityCodes.add(o.ruleId);
  const security: Case[] = [...securityCodes].map((code) => codeCase('mcp-tap.security', code, 'security'));

  const schemas: Case[] = report.toolNames.map((tool) => ({
    classname: 'mcp-tap.schemas',
    name: `tool ${JSON.stringify(tool)}`,
    failures: report.problems.filter((p) => p.category === 'schema' && p.tool === tool),
  }));

  const assertions: Case[] = report.assertions.map((a, i) => ({
    classname: 'mcp-tap.assertions',
    name: a.flag,
    failures: report.problems.filter((p) => p.assertion === i),
  }));

  const suites = [
    renderSuite('mcp-tap.requests', requests, omittedNote(left)),
    renderSuite('mcp-tap.findings', findings),
    renderSuite('mcp-tap.security', security),
    renderSuite('mcp-tap.schemas', schemas),
    renderSuite('mcp-tap.assertions', assertions),
  ];
  const all = [...requests, ...findings, ...security, ...schemas, ...assertions];
  const failures = all.filter((c) => c.failures.length > 0).length;
  const time = requests.reduce((t, c) => t + (c.time ?? 0), 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-tap check" tests="${all.length}" failures="${failures}" errors="0" time="${time.toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
