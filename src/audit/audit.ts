/**
 * `mcp-tap audit`: what a host is exposed to across every server it runs — each server's security
 * findings (the security lens over its latest session), tool names offered by more than one server
 * (shadowing), and descriptions that name another server's tools. Pure: one ServerFacts per log in,
 * the AuditReport every renderer lays out.
 */
import type { ContextCost } from '../lens/context/context-cost.js';
import { definitionTexts } from '../lens/security/definition-texts.js';
import { securityRule, type Severity } from '../lens/security/rules.js';
import { shown } from '../lens/security/unicode.js';
import type { CheckReport } from '../check/report.js';
import type { ListedItem } from '../check/facts.js';
import { VERSION } from '../version.js';

/** What audit knows of one server: its log, the check of its latest session, its tools, its context cost. */
export interface ServerFacts {
  name: string;
  log: string;
  report: CheckReport;
  tools: ListedItem[] | null;
  context?: ContextCost;
}

/** One finding of the audit: a server's own, or one across servers. */
export interface AuditFinding {
  ruleId: string;
  severity: Severity;
  score: number;
  message: string;
  /** The server (log) it is located in; cross-server findings name the first of `servers`. */
  server: string;
  log: string;
  seq?: number;
  line?: number;
  tool?: string;
  /** tool-shadowed: every server offering the name; names-other-server-tool: the server named. */
  servers?: string[];
}

/** One row of the servers table. */
export interface AuditServer {
  name: string;
  log: string;
  session: string | null;
  serverInfo?: { name?: string; version?: string };
  /** Tools of the latest listing; null when the session has none. */
  tools: number | null;
  /** Tokens before the first message (tool definitions and instructions), o200k_base. */
  contextTokens: number | null;
  findings: number;
}

/** The audit (`--format json`). */
export interface AuditReport {
  auditVersion: 1;
  tool: { name: 'mcp-tap'; version: string };
  tokenizer: string | null;
  servers: AuditServer[];
  findings: AuditFinding[];
  /** Logs that could not be read (not a log, no session), with why. */
  skipped: Array<{ log: string; reason: string }>;
}

/** A tool name specific enough to be a reference when it appears in another server's prose. */
const IDENTIFIER = /[_.-]|[a-z][A-Z]/;
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function finding(ruleId: string, message: string, at: { server: string; log: string; seq?: number; line?: number; tool?: string; servers?: string[] }): AuditFinding {
  const rule = securityRule(ruleId);
  return { ruleId, severity: rule?.severity ?? 'medium', score: rule?.score ?? 5, message, ...at };
}

/** Tool names offered by more than one server. */
function shadowed(servers: readonly ServerFacts[]): AuditFinding[] {
  const by = new Map<string, ServerFacts[]>();
  for (const s of servers) for (const t of s.tools ?? []) by.set(t.key, [...(by.get(t.key) ?? []), s]);
  const out: AuditFinding[] = [];
  for (const [name, offering] of [...by].sort(([a], [b]) => a.localeCompare(b))) {
    // two logs of one server (renamed, moved) are not two servers
    const names = [...new Set(offering.map((s) => s.name))];
    if (names.length < 2) continue;
    const first = offering[0]!;
    const at = first.tools!.find((t) => t.key === name)!.at;
    out.push(finding('tool-shadowed', `tool ${shown(name)} is offered by ${names.length} servers: ${names.map((n) => shown(n)).join(', ')} — which one the model calls depends on the host`, { server: first.name, log: first.log, seq: at.seq, line: at.line, tool: name, servers: names }));
  }
  return out;
}

/** Descriptions of one server that name a tool only another server offers. */
function namesOthers(servers: readonly ServerFacts[]): AuditFinding[] {
  const out: AuditFinding[] = [];
  for (const s of servers) {
    const own = new Set((s.tools ?? []).map((t) => t.key));
    const others = servers.filter((o) => o.name !== s.name).flatMap((o) => (o.tools ?? []).filter((t) => !own.has(t.key) && IDENTIFIER.test(t.key)).map((t) => ({ name: t.key, server: o.name })));
    if (others.length === 0) continue;
    for (const t of s.tools ?? []) {
      const prose = definitionTexts('tool', t.def).filter((x) => x.role === 'prose');
      const named = others.filter((o) => prose.some((p) => new RegExp(`(?<![\\w.-])${escapeRe(o.name)}(?![\\w-])`).test(p.text)));
      if (named.length === 0) continue;
      const list = named.slice(0, 5).map((o) => `${shown(o.name)} (${shown(o.server)})`).join(', ');
      out.push(finding('names-other-server-tool', `tool ${shown(t.key)} of ${shown(s.name)} names another server's tool: ${list}`, { server: s.name, log: s.log, seq: t.at.seq, line: t.at.line, tool: t.key, servers: [...new Set(named.map((o) => o.server))] }));
    }
  }
  return out;
}

/** The audit of the servers' facts. */
export function audit(servers: readonly ServerFacts[], skipped: AuditReport['skipped'] = [], tokenizer: string | null = null): AuditReport {
  const own: AuditFinding[] = [];
  const rows: AuditServer[] = servers.map((s) => {
    const security = s.report.problems.filter((p) => p.category === 'security');
    for (const p of security) {
      own.push(finding(p.ruleId, p.message, { server: s.name, log: s.log, ...(p.seq !== undefined ? { seq: p.seq } : {}), ...(p.line !== undefined ? { line: p.line } : {}) }));
    }
    const info = s.report.server;
    return {
      name: s.name,
      log: s.log,
      session: s.report.session,
      ...(info.name !== undefined || info.version !== undefined ? { serverInfo: { ...(info.name !== undefined ? { name: info.name } : {}), ...(info.version !== undefined ? { version: info.version } : {}) } } : {}),
      tools: s.tools?.length ?? null,
      contextTokens: s.context ? s.context.beforeFirstMessage : null,
      findings: security.length,
    };
  });
  const cross = [...shadowed(servers), ...namesOthers(servers)];
  for (const f of cross) {
    const row = rows.find((r) => r.name === f.server && r.log === f.log);
    if (row) row.findings++;
  }
  const findings = [...cross, ...own].sort((a, b) => b.score - a.score || a.server.localeCompare(b.server) || (a.seq ?? 0) - (b.seq ?? 0));
  return { auditVersion: 1, tool: { name: 'mcp-tap', version: VERSION }, tokenizer, servers: rows, findings, skipped };
}
