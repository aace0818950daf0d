/**
 * `mcp-tap diff`: what changed from baseline A to baseline B — tools, resources, resource templates and
 * prompts added, removed or changed (with JSON Pointer paths), capabilities and protocol version,
 * latency regressions (median ≥ ratio × and ≥ minMs slower), and finding codes new in B. Pure.
 */
import type { Tokenizer } from '../lens/context/tokenizer.js';
import { toolText } from '../lens/context/model-text.js';
import { compareTools } from '../lens/security/rug-pull.js';
import type { Baseline, LatencyStat } from './baseline.js';
import { diffJson, type Change } from './json-diff.js';

/** Latency regression thresholds: B median ≥ ratio × A median and ≥ A median + minMs. */
export const DEFAULT_RATIO = 1.5;
export const DEFAULT_MIN_MS = 50;

/** What part of the baseline a difference is about. */
export type Area = 'tools' | 'resources' | 'resourceTemplates' | 'prompts' | 'capabilities' | 'protocolVersion' | 'latency' | 'findings' | 'context';

/** One difference from A to B (the JSON output of `diff`). */
export interface Difference {
  area: Area;
  kind: 'added' | 'removed' | 'changed' | 'slower' | 'new';
  /** The tool / resource uri / template / prompt, the method or tool of a latency, the finding code. */
  name?: string;
  /** `changed`: what changed inside the definition (or the capabilities). */
  changes?: Change[];
  /** protocolVersion; latency medians (ms); finding count in B. */
  before?: unknown;
  after?: unknown;
  /** Latency: after / before, and after − before in ms. */
  ratio?: number;
  deltaMs?: number;
  /** Latency: `method` for a method, `tool` for one tool of tools/call. */
  scope?: 'method' | 'tool';
  /** Tools (with a tokenizer): tokens of the definition in A and in B; `context`: of all of them. */
  tokens?: { before?: number; after?: number };
  /** Tools: how the change weakens safety (a rug pull against the baseline: readOnlyHint dropped, …). */
  weakened?: string[];
}

/** `--ratio` and `--min-ms`; a tokenizer adds token figures to tool differences. */
export interface DiffOptions {
  ratio?: number;
  minMs?: number;
  tokenizer?: Tokenizer;
}

/** Everything `diff` found. */
export interface DiffResult {
  thresholds: { ratio: number; minMs: number };
  differences: Difference[];
  /** Areas that could not be compared because one side has no data for them. */
  notCompared: string[];
}

const LISTS = [
  ['tools', 'tools/list'],
  ['resources', 'resources/list'],
  ['resourceTemplates', 'resources/templates/list'],
  ['prompts', 'prompts/list'],
] as const;

function compareDefinitions(area: Area, a: Record<string, Record<string, unknown>>, b: Record<string, Record<string, unknown>>, tokenizer?: Tokenizer): Difference[] {
  const out: Difference[] = [];
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const count = (d: Record<string, unknown> | undefined) => (d !== undefined && tokenizer && area === 'tools' ? tokenizer.count(toolText(d)) : undefined);
  for (const name of names) {
    const x = a[name];
    const y = b[name];
    const before = count(x);
    const after = count(y);
    const tokens = before !== undefined || after !== undefined ? { tokens: { ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) } } : {};
    if (x === undefined) out.push({ area, kind: 'added', name, ...tokens });
    else if (y === undefined) out.push({ area, kind: 'removed', name, ...tokens });
    else {
      const changes = diffJson(x, y);
      if (changes.length === 0) continue;
      const weakened = area === 'tools' ? compareTools(x, y).weakened : [];
      out.push({ area, kind: 'changed', name, changes, ...(before !== after ? tokens : {}), ...(weakened.length > 0 ? { weakened } : {}) });
    }
  }
  return out;
}

/** The tool definitions' total tokens in A and B, when they differ. */
function compareContext(a: Record<string, Record<string, unknown>>, b: Record<string, Record<string, unknown>>, tokenizer: Tokenizer): Difference[] {
  const total = (defs: Record<string, Record<string, unknown>>) => Object.values(defs).reduce((n, d) => n + tokenizer.count(toolText(d)), 0);
  const before = total(a);
  const after = total(b);
  return before === after ? [] : [{ area: 'context', kind: 'changed', name: 'tool definitions', tokens: { before, after } }];
}

function compareLatency(scope: 'method' | 'tool', a: Record<string, LatencyStat>, b: Record<string, LatencyStat>, ratio: number, minMs: number): Difference[] {
  const out: Difference[] = [];
  for (const name of Object.keys(b).sort()) {
    const x = a[name];
    const y = b[name];
    if (!x || !y) continue;
    const delta = y.median - x.median;
    if (y.median >= ratio * x.median && delta >= minMs) {
      out.push({
        area: 'latency',
        kind: 'slower',
        scope,
        name,
        before: x.median,
        after: y.median,
        ratio: x.median > 0 ? Math.round((y.median / x.median) * 100) / 100 : Number.POSITIVE_INFINITY,
        deltaMs: Math.round(delta * 1000) / 1000,
      });
    }
  }
  return out;
}

/** The differences from A to B. */
export function diffBaselines(a: Baseline, b: Baseline, opts: DiffOptions = {}): DiffResult {
  const ratio = opts.ratio ?? DEFAULT_RATIO;
  const minMs = opts.minMs ?? DEFAULT_MIN_MS;
  const differences: Difference[] = [];
  const notCompared: string[] = [];

  for (const [area, method] of LISTS) {
    const x = a[area];
    const y = b[area];
    if (x === null || y === null) {
      if (x !== null || y !== null) notCompared.push(`${area}: ${x === null ? 'A' : 'B'} has no ${method} answer`);
      continue;
    }
    differences.push(...compareDefinitions(area, x, y, opts.tokenizer));
    if (area === 'tools' && opts.tokenizer) differences.push(...compareContext(x, y, opts.tokenizer));
  }

  if (a.capabilities !== null && b.capabilities !== null) {
    const changes = diffJson(a.capabilities, b.capabilities);
    if (changes.length > 0) differences.push({ area: 'capabilities', kind: 'changed', changes });
  } else if (a.capabilities !== null || b.capabilities !== null) {
    notCompared.push(`capabilities: ${a.capabilities === null ? 'A' : 'B'} has no initialize answer`);
  }

  if (a.protocolVersion !== null && b.protocolVersion !== null) {
    if (a.protocolVersion !== b.protocolVersion) differences.push({ area: 'protocolVersion', kind: 'changed', before: a.protocolVersion, after: b.protocolVersion });
  } else if (a.protocolVersion !== null || b.protocolVersion !== null) {
    notCompared.push(`protocol version: ${a.protocolVersion === null ? 'A' : 'B'} has none`);
  }

  differences.push(...compareLatency('method', a.latency.methods, b.latency.methods, ratio, minMs));
  differences.push(...compareLatency('tool', a.latency.tools, b.latency.tools, ratio, minMs));

  for (const code of Object.keys(b.findings).sort()) {
    if (a.findings[code] === undefined) differences.push({ area: 'findings', kind: 'new', name: code, after: b.findings[code] });
  }
  return { thresholds: { ratio, minMs }, differences, notCompared };
}
