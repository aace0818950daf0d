/**
 * `mcp-tap check --format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers. One
 * rule per rule id (note codes and check's own, with help and the spec link); each result located at
 * its log record: the log file, the record's line, and the session/seq as a logical location.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { failsOn } from './fail-on.js';
import { OTHER_KEY, shareResults } from '../log/keep-first.js';
import { omittedResultText } from './omitted.js';
import type { CheckReport, Problem } from './report.js';
import { allRules, ruleFor, type RuleInfo } from './rules.js';

/** `$schema` of the SARIF output (the schema GitHub code scanning documents). */
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

/** Results per run: GitHub code scanning shows 5,000 per run (and rejects a file with more than 25,000). */
export const SARIF_MAX_RESULTS = 5000;

/** The report's results that fit in one SARIF run (in log order), and how many of each rule do not. */
function fitResults(report: CheckReport, max: number): { shown: Problem[]; cut: Map<string, number> } {
  const counts = new Map<string, number>();
  for (const p of report.problems) counts.set(p.ruleId, (counts.get(p.ruleId) ?? 0) + 1);
  const share = shareResults(counts, max);
  const shown: Problem[] = [];
  const cut = new Map<string, number>();
  for (const p of report.problems) {
    const room = share.get(p.ruleId)!;
    if (room > 0) {
      share.set(p.ruleId, room - 1);
      shown.push(p);
    } else cut.set(p.ruleId, (cut.get(p.ruleId) ?? 0) + 1);
  }
  return { shown, cut };
}

/** Per rule, the results not in the file: cut here, or left out of the report already. */
function leftOut(report: CheckReport, cut: ReadonlyMap<string, number>): Array<{ ruleId: string; count: number; text: string }> {
  const by = new Map<string, { count: number; codes: Set<number | null | undefined>; category: Problem['category'] }>();
  const add = (ruleId: string, count: number, category: Problem['category'], code?: number | null) => {
    let e = by.get(ruleId);
    if (!e) by.set(ruleId, (e = { count: 0, codes: new Set(), category }));
    e.count += count;
    e.codes.add(code);
  };
  for (const [ruleId, n] of cut) add(ruleId, n, ruleFor(ruleId).category);
  for (const o of report.omittedResults) add(o.ruleId, o.count, o.category, o.errorCode);
  return [...by].map(([ruleId, e]) => {
    const [only] = e.codes;
    const code = e.codes.size === 1 && only !== undefined ? { errorCode: only } : {};
    return { ruleId, count: e.count, text: omittedResultText({ ruleId, category: e.category, count: e.count, ...code }) };
  });
}

type Level = 'error' | 'warning' | 'note';

/** `stdout-not-json` → `StdoutNotJson` (SARIF's rule `name`). */
const pascal = (id: string): string => id.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');

const levelOf = (report: CheckReport, category: RuleInfo['category']): Level =>
  category === 'info' ? 'note' : failsOn(report.failOn, category) ? 'error' : 'warning';

/** The log's URI: relative to `cwd` (the repository root in CI) when inside it, else a file: URL. */
export function artifactUri(path: string, cwd: string): { uri: string; uriBaseId?: string } {
  const rel = relative(cwd, path);
  if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) {
    return { uri: rel.split(sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
  }
  return { uri: pathToFileURL(path).href };
}

function ruleDescriptor(report: CheckReport, r: RuleInfo): Record<string, unknown> {
  const link = r.helpUri ? `\n\nSee ${r.helpUri}` : '';
  return {
    id: r.id,
    name: pascal(r.id),
    shortDescription: { text: r.summary },
    fullDescription: { text: `${r.summary}. ${r.help}` },
    help: { text: `${r.help}${link}`, markdown: `${r.help}${r.helpUri ? `\n\nSee [the specification](${r.helpUri}).` : ''}` },
    ...(r.helpUri ? { helpUri: r.helpUri } : {}),
    defaultConfiguration: { level: levelOf(report, r.category) },
    // code scanning ranks security alerts by properties.security-severity and files them under the "security" tag
    properties:
      r.securitySeverity !== undefined
        ? { category: r.category, tags: ['security', 'mcp'], 'security-severity': r.securitySeverity.toFixed(1) }
        : { category: r.category, tags: ['mcp', r.category] },
  };
}

/** A fingerprint that survives re-runs (seq numbers and latencies change; the rule and what it is about do not). */
function fingerprint(report: CheckReport, p: Problem, counts: Map<string, number>): string {
  const req = p.request !== undefined ? report.requests[p.request] : undefined;
  const basis = [p.ruleId, req?.from ?? '', req?.method ?? '', req?.target ?? '', p.tool ?? ''].join('\u0000');
  const n = (counts.get(basis) ?? 0) + 1;
  counts.set(basis, n);
  return `${createHash('sha256').update(basis).digest('hex').slice(0, 32)}:${n}`;
}

/** The report as a SARIF 2.1.0 log (a JSON string). `cwd` decides whether the log's URI is relative. */
export function renderSarif(report: CheckReport, opts: { cwd: string; maxResults?: number }): string {
  const rules = allRules();
  const index = new Map(rules.map((r, i) => [r.id, i]));
  for (const p of [...report.problems, ...report.omittedResults.filter((o) => o.ruleId !== OTHER_KEY)]) {
    if (!index.has(p.ruleId)) {
      index.set(p.ruleId, rules.length);
      rules.push(ruleFor(p.ruleId));
    }
  }
  const artifact = artifactUri(report.log, opts.cwd);
  const counts = new Map<string, number>();
  const { shown, cut } = fitResults(report, opts.maxResults ?? SARIF_MAX_RESULTS);
  const left = leftOut(report, cut);
  const results = shown.map((p) => {
    const physical: Record<string, unknown> = { artifactLocation: { ...artifact, index: 0 } };
    if (p.line !== undefined) physical['region'] = { startLine: p.line };
    const location: Record<string, unknown> = { physicalLocation: physical };
    if (p.seq !== undefined && report.session !== null) {
      location['logicalLocations'] = [{ name: `seq ${p.seq}`, fullyQualifiedName: `${report.session}/seq/${p.seq}`, kind: 'element' }];
    }
    return {
      ruleId: p.ruleId,
      ruleIndex: index.get(p.ruleId)!,
      level: levelOf(report, p.category),
      message: { text: p.message },
      locations: [location],
      partialFingerprints: { 'mcpTapResult/v1': fingerprint(report, p, counts) },
      properties: {
        category: p.category,
        ...(report.session !== null ? { session: report.session } : {}),
        ...(p.seq !== undefined ? { seq: p.seq } : {}),
        ...(p.tool !== undefined ? { tool: p.tool } : {}),
      },
    };
  });
  const sarif = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-tap',
            version: report.tool.version,
            semanticVersion: report.tool.version,
            rules: rules.map((r) => ruleDescriptor(report, r)),
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            exitCode: report.passed ? 0 : 1,
            ...(left.length > 0
              ? {
                  toolExecutionNotifications: left.map((l) => ({
                    level: 'note',
                    message: { text: `${l.text}, not in this file (a run holds at most ${(opts.maxResults ?? SARIF_MAX_RESULTS).toLocaleString('en-US')} results; each rule keeps its first)` },
                    associatedRule: { id: l.ruleId, ...(index.has(l.ruleId) ? { index: index.get(l.ruleId) } : {}) },
                    properties: { omitted: l.count },
                  })),
                }
              : {}),
            properties: { mode: report.mode, failOn: report.failOn, failed: report.failed, passed: report.passed },
          },
        ],
        artifacts: [{ location: artifact, description: { text: `mcp-tap log${report.session ? ` (session ${report.session})` : ''}` } }],
        results,
        properties: {
          server: report.server,
          summary: report.summary,
          ...(report.session !== null ? { session: report.session } : {}),
          omittedResults: { total: left.reduce((n, l) => n + l.count, 0), byRule: Object.fromEntries(left.map((l) => [l.ruleId, l.count])) },
        },
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
