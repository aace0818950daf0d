/**
 * `mcp-tap check --format junit`: JUnit XML for CI test reporters. Suites: one testcase per request
 * (failed when it got an error, an isError result, no answer, or broke an assertion), one per finding
 * code (failed when it occurred), one per listed tool (failed on schema problems), one per assertion.
 */
import type { CheckReport, Problem, RequestOutcome } from './report.js';
import { securityRule } from '../lens/security/rules.js';
import { allRules, FINDING_CATEGORIES, type Category } from './rules.js';
import { xmlAttr, xmlEscape } from './xml.js';

interface Case {
  classname: string;
  name: string;
  /** Seconds. */
  time?: number;
  failures: Problem[];
  /** Informational results (not failures). */
  out?: string[];
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
  if (first) {
    const body = c.failures.map((p) => `${p.ruleId}: ${p.message}${where(p)}`).join('\n');
    parts.push(`      <failure type="${xmlAttr(first.ruleId)}" message="${xmlAttr(first.message)}">${xmlEscape(body)}</failure>`);
  }
  if (c.out && c.out.length > 0) parts.push(`      <system-out>${xmlEscape(c.out.join('\n'))}</system-out>`);
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

/** Said where a long session's passing requests are left out (docs/check.md). */
export function omittedNote(n: number): string {
  return `… and ${n} more passing request${n === 1 ? '' : 's'} (a long session lists its first requests and every one that did not pass)`;
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
  const requests: Case[] = report.requests.map((r, i) => {
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
  const findings: Case[] = [...codes].map(([code, category]) => {
    const hits = report.problems.filter((p) => p.ruleId === code);
    if (category === 'info') {
      return { classname: 'mcp-tap.findings', name: code, failures: [], out: hits.map((p) => `${p.message}${where(p)}`) };
    }
    return { classname: 'mcp-tap.findings', name: code, failures: hits };
  });

  // one testcase per security rule of a session (audit's rules belong to `mcp-tap audit`)
  const securityCodes = new Set(allRules().filter((r) => r.category === 'security' && securityRule(r.id)?.scope === 'session').map((r) => r.id));
  for (const p of report.problems) if (p.category === 'security') securityCodes.add(p.ruleId);
  const security: Case[] = [...securityCodes].map((code) => ({ classname: 'mcp-tap.security', name: code, failures: report.problems.filter((p) => p.ruleId === code) }));

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
    renderSuite('mcp-tap.requests', requests, report.omittedRequests > 0 ? omittedNote(report.omittedRequests) : undefined),
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
