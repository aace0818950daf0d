/**
 * A baseline: what a server offered and how it behaved in one session — tools, resources, templates
 * and prompts as listed, capabilities, protocol version, median latency per method and per tool, and
 * the finding codes seen. `baseline save` writes it; `diff` compares two of them (a log or a session is
 * turned into one on the fly). The JSON shape is a contract (docs/check.md); keys are sorted so a
 * baseline committed to a repository diffs cleanly.
 */
import { percentile } from '../transcript/stats.js';
import { VERSION } from '../version.js';
import { evaluate } from './evaluate.js';
import type { ListedItem, SessionFacts } from './gather.js';

/** Format version written in `mcpTapBaseline`; bumped when a field changes meaning. */
export const BASELINE_VERSION = 1;

/** Latency of one method or tool in one session. */
export interface LatencyStat {
  /** Answers measured. */
  n: number;
  /** Nearest-rank median, ms. */
  median: number;
}

/** The baseline file (docs/check.md). */
export interface Baseline {
  /** Format version of this file; its presence marks the file as a baseline. */
  mcpTapBaseline: number;
  createdBy: string;
  source: { session: string; start?: string; name?: string };
  server: { name?: string; version?: string } | null;
  protocolVersion: string | null;
  capabilities: Record<string, unknown> | null;
  /** null: the session has no answer to that listing, so it cannot be compared. */
  tools: Record<string, Record<string, unknown>> | null;
  resources: Record<string, Record<string, unknown>> | null;
  resourceTemplates: Record<string, Record<string, unknown>> | null;
  prompts: Record<string, Record<string, unknown>> | null;
  latency: { methods: Record<string, LatencyStat>; tools: Record<string, LatencyStat> };
  /** Finding codes (the log's notes and check's session findings) and how often each occurred. */
  findings: Record<string, number>;
}

const byKey = <T>(entries: Array<[string, T]>): Record<string, T> =>
  Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

function definitions(items: ListedItem[] | null): Record<string, Record<string, unknown>> | null {
  return items === null ? null : byKey(items.map((i) => [i.key, i.def]));
}

function medians(groups: Map<string, number[]>): Record<string, LatencyStat> {
  return byKey(
    [...groups].map(([k, ms]) => {
      const sorted = [...ms].sort((a, b) => a - b);
      return [k, { n: sorted.length, median: Math.round(percentile(sorted, 50)! * 1000) / 1000 }];
    }),
  );
}

/** The baseline of one session's facts. */
export function buildBaseline(facts: SessionFacts): Baseline {
  const startTime = facts.startTime;
  const methods = new Map<string, number[]>();
  const tools = new Map<string, number[]>();
  const add = (m: Map<string, number[]>, k: string, v: number) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  for (const q of facts.requests) {
    if (q.from !== 'client' || q.answer?.ms === undefined) continue;
    add(methods, q.method, q.answer.ms);
    if (q.method === 'tools/call' && q.target !== undefined) add(tools, q.target, q.answer.ms);
  }
  const findings = new Map<string, number>();
  const report = evaluate(facts);
  for (const p of report.problems) {
    if (p.category === 'findings') findings.set(p.ruleId, (findings.get(p.ruleId) ?? 0) + 1);
  }
  for (const o of report.omittedResults) if (o.category === 'findings') findings.set(o.ruleId, (findings.get(o.ruleId) ?? 0) + o.count);
  const info = facts.serverInfo;
  return {
    mcpTapBaseline: BASELINE_VERSION,
    createdBy: `mcp-tap ${VERSION}`,
    source: {
      session: facts.session,
      ...(startTime !== undefined ? { start: new Date(startTime).toISOString() } : {}),
      ...(facts.start?.name !== undefined ? { name: facts.start.name } : {}),
    },
    server: info
      ? {
          ...(typeof info['name'] === 'string' ? { name: info['name'] } : {}),
          ...(typeof info['version'] === 'string' ? { version: info['version'] } : {}),
        }
      : null,
    protocolVersion: facts.protocolVersion ?? null,
    capabilities: facts.capabilities ?? null,
    tools: definitions(facts.tools),
    resources: definitions(facts.resources),
    resourceTemplates: definitions(facts.resourceTemplates),
    prompts: definitions(facts.prompts),
    latency: { methods: medians(methods), tools: medians(tools) },
    findings: byKey([...findings]),
  };
}
