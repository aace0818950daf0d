/**
 * `mcp-tap audit` output: a text table (servers, then findings by severity), JSON (the AuditReport) and
 * SARIF 2.1.0 (one artifact per log, results at their record's line, the security rules with
 * `properties.security-severity` and the `security` tag). Wire text is escaped.
 */
import { createHash } from 'node:crypto';
import { artifactUri, SARIF_SCHEMA_URI } from '../check/render-sarif.js';
import { securityCheckRules } from '../check/rules.js';
import { escapeControl } from '../text/escape.js';
import { tokens } from '../transcript/context-text.js';
import type { AuditFinding, AuditReport } from './audit.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows.map((r) => r.map((c, i) => (i >= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd());
}

/** The audit as text. */
export function renderAuditText(a: AuditReport): string {
  const shadowed = a.findings.filter((f) => f.ruleId === 'tool-shadowed').length;
  const out = [`mcp-tap audit: ${plural(a.servers.length, 'server')}, ${plural(shadowed, 'shadowed tool name')}, ${plural(a.findings.length, 'security finding')}`, ''];
  const rows = [['server', 'log', 'session', 'tools', 'tokens', 'findings']];
  for (const s of a.servers) {
    rows.push([escapeControl(s.name), escapeControl(s.log), escapeControl(s.session ?? '-'), s.tools === null ? '-' : String(s.tools), s.contextTokens === null ? '-' : tokens(s.contextTokens), String(s.findings)]);
  }
  out.push(...table(rows));
  if (a.findings.length > 0) {
    out.push('', 'findings (most severe first):');
    const w = Math.max(...a.findings.map((f) => f.ruleId.length));
    for (const f of a.findings) {
      const where = f.line !== undefined ? ` line ${f.line}` : '';
      out.push(`  ${f.severity.padEnd(8)} ${f.ruleId.padEnd(w)}  ${escapeControl(f.server)}${where}: ${escapeControl(f.message)}`);
    }
  }
  for (const s of a.skipped) out.push('', `skipped ${escapeControl(s.log)}: ${escapeControl(s.reason)}`);
  out.push('', `tokens: what each server costs before the first message (tool definitions and instructions, ${a.tokenizer ?? 'o200k_base'}; an estimate for other models)`);
  return `${out.join('\n')}\n`;
}

/** The audit as JSON. */
export function renderAuditJson(a: AuditReport): string {
  return `${JSON.stringify(a, null, 2)}\n`;
}

const levelOf = (f: AuditFinding): 'error' | 'warning' | 'note' => (f.severity === 'critical' || f.severity === 'high' ? 'error' : f.severity === 'medium' ? 'warning' : 'note');

/** The audit as SARIF 2.1.0; `cwd` decides whether log URIs are relative. */
export function renderAuditSarif(a: AuditReport, opts: { cwd: string }): string {
  const rules = securityCheckRules();
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const logs = [...new Set([...a.servers.map((s) => s.log), ...a.findings.map((f) => f.log)])];
  const artifacts = logs.map((l) => ({ location: artifactUri(l, opts.cwd), description: { text: `mcp-tap log of ${a.servers.find((s) => s.log === l)?.name ?? l}` } }));
  const counts = new Map<string, number>();
  const results = a.findings.map((f) => {
    const physical: Record<string, unknown> = { artifactLocation: { ...artifactUri(f.log, opts.cwd), index: logs.indexOf(f.log) } };
    if (f.line !== undefined) physical['region'] = { startLine: f.line };
    const basis = [f.ruleId, f.server, f.tool ?? '', ...(f.servers ?? [])].join('\u0000');
    const n = (counts.get(basis) ?? 0) + 1;
    counts.set(basis, n);
    return {
      ruleId: f.ruleId,
      ...(index.has(f.ruleId) ? { ruleIndex: index.get(f.ruleId)! } : {}),
      level: levelOf(f),
      message: { text: f.message },
      locations: [{ physicalLocation: physical, logicalLocations: [{ name: f.server, kind: 'module' }] }],
      partialFingerprints: { 'mcpTapAudit/v1': `${createHash('sha256').update(basis).digest('hex').slice(0, 32)}:${n}` },
      properties: { server: f.server, severity: f.severity, 'security-severity': f.score.toFixed(1), ...(f.seq !== undefined ? { seq: f.seq } : {}), ...(f.tool !== undefined ? { tool: f.tool } : {}), ...(f.servers ? { servers: f.servers } : {}) },
    };
  });
  const sarif = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-tap audit',
            version: a.tool.version,
            semanticVersion: a.tool.version,
            rules: rules.map((r) => ({
              id: r.id,
              name: r.id.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(''),
              shortDescription: { text: r.summary },
              fullDescription: { text: `${r.summary}. ${r.help}` },
              help: { text: r.help },
              ...(r.helpUri ? { helpUri: r.helpUri } : {}),
              properties: { category: 'security', tags: ['security', 'mcp'], 'security-severity': r.securitySeverity!.toFixed(1) },
            })),
          },
        },
        artifacts,
        results,
        properties: { servers: a.servers },
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
