/**
 * A baseline: what a server offered and how it behaved in one session — tools, resources, templates
 * and prompts as listed, capabilities, protocol version, median latency per method and per tool, and
 * the finding codes seen. `baseline save` writes it; `diff` compares two of them (a log or a session is
 * turned into one on the fly). The JSON shape is a contract (docs/check.md); keys are sorted so a
 * baseline committed to a repository diffs cleanly.
 */
import { toolText } from '../lens/context/model-text.js';
import type { Tokenizer } from '../lens/context/tokenizer.js';
import { VERSION } from '../version.js';
import { FINDING_CATEGORIES } from './rules.js';
import { evaluate } from './evaluate.js';
import type { ListedItem, SessionFacts } from './facts.js';
import type { LatencyStat } from './latency-medians.js';

export type { LatencyStat } from './latency-medians.js';

/** Format version written in `mcpTapBaseline`; bumped when a field changes meaning. */
export const BASELINE_VERSION = 1;

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
  /** Tokens of each tool definition as the host sends it, and their sum (when saved with a tokenizer). */
  tokens?: { tokenizer: string; tools: Record<string, number>; total: number };
}

/** Tokens of each tool definition of a listing, by name (sorted), and their sum. */
export function toolTokens(tools: Record<string, Record<string, unknown>>, tokenizer: Tokenizer): NonNullable<Baseline['tokens']> {
  const per = byKey(Object.entries(tools).map(([name, def]) => [name, tokenizer.count(toolText(def))]));
  return { tokenizer: tokenizer.name, tools: per, total: Object.values(per).reduce((a, b) => a + b, 0) };
}

const byKey = <T>(entries: Array<[string, T]>): Record<string, T> =>
  Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

function definitions(items: ListedItem[] | null): Record<string, Record<string, unknown>> | null {
  return items === null ? null : byKey(items.map((i) => [i.key, i.def]));
}

function medians(stats: Map<string, LatencyStat>): Record<string, LatencyStat> {
  return byKey([...stats].map(([k, s]) => [k, { n: s.n, median: Math.round(s.median * 1000) / 1000 }]));
}

/** The baseline of one session's facts; with a tokenizer, the tokens of each tool definition too. */
export function buildBaseline(facts: SessionFacts, tokenizer?: Tokenizer): Baseline {
  const startTime = facts.startTime;
  const findings = new Map<string, number>();
  const report = evaluate(facts);
  for (const p of report.problems) {
    if (FINDING_CATEGORIES.includes(p.category)) findings.set(p.ruleId, (findings.get(p.ruleId) ?? 0) + 1);
  }
  for (const o of report.omittedResults) if (FINDING_CATEGORIES.includes(o.category)) findings.set(o.ruleId, (findings.get(o.ruleId) ?? 0) + o.count);
  const info = facts.serverInfo;
  const listed = definitions(facts.tools);
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
    tools: listed,
    resources: definitions(facts.resources),
    resourceTemplates: definitions(facts.resourceTemplates),
    prompts: definitions(facts.prompts),
    latency: { methods: medians(facts.latency.methods), tools: medians(facts.latency.tools) },
    findings: byKey([...findings]),
    ...(listed !== null && tokenizer ? { tokens: toolTokens(listed, tokenizer) } : {}),
  };
}
