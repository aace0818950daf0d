/** `mcp-tap diff` as text (grouped by area) or JSON (the DiffResult with both sides named). */
import { formatMs } from '../transcript/format.js';
import { escapeControl } from '../text/escape.js';
import type { Baseline } from './baseline.js';
import type { Area, DiffResult, Difference } from './diff.js';

/** One side of the diff as shown: its label and baseline. */
export interface Side {
  label: string;
  baseline: Baseline;
}

const TITLES: Record<Area, string> = {
  tools: 'tools',
  resources: 'resources',
  resourceTemplates: 'resource templates',
  prompts: 'prompts',
  capabilities: 'capabilities',
  protocolVersion: 'protocol version',
  latency: 'latency',
  findings: 'finding codes new in B',
  context: 'context cost (tokens of the tool definitions as hosts send them)',
};

const signed = (n: number): string => (n > 0 ? `+${n.toLocaleString('en-US')}` : n.toLocaleString('en-US'));

/** ` (120 tokens)`, ` (tokens 120 → 340, +220)`. */
function tokenText(d: Difference): string {
  const t = d.tokens;
  if (!t) return '';
  if (t.before !== undefined && t.after !== undefined) return ` (tokens ${t.before.toLocaleString('en-US')} → ${t.after.toLocaleString('en-US')}, ${signed(t.after - t.before)})`;
  const n = t.after ?? t.before;
  return n !== undefined ? ` (${n.toLocaleString('en-US')} tokens)` : '';
}

/** A JSON value in one short line. */
export function showValue(v: unknown, max = 80): string {
  if (v === undefined) return '(absent)';
  const s = escapeControl(JSON.stringify(v) ?? String(v));
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function describe(b: Baseline): string {
  const who = [b.server?.name, b.server?.version].filter((x) => x !== undefined).join(' ');
  const parts = [who || undefined, b.protocolVersion ? `protocol ${b.protocolVersion}` : undefined].filter(Boolean);
  return parts.length > 0 ? ` — ${escapeControl(parts.join(', '))}` : '';
}

function line(d: Difference): string[] {
  const name = escapeControl(d.name ?? '');
  switch (d.kind) {
    case 'added':
      return [`  + ${name}${tokenText(d)}`];
    case 'removed':
      return [`  - ${name}${tokenText(d)}`];
    case 'new':
      return [`  + ${name}${typeof d.after === 'number' ? ` (${d.after}×)` : ''}`];
    case 'slower': {
      const what = d.scope === 'tool' ? `tool ${name}` : name;
      const ratio = Number.isFinite(d.ratio) ? `${d.ratio}×` : 'from 0';
      return [`  ▲ ${what}: median ${formatMs(d.before as number)} → ${formatMs(d.after as number)} (${ratio}, +${formatMs(d.deltaMs!)})`];
    }
    case 'changed': {
      if (d.area === 'protocolVersion') return [`  ~ ${showValue(d.before)} → ${showValue(d.after)}`];
      if (d.area === 'context') return [`  ~ ${name}${tokenText(d)}`];
      const head = d.name !== undefined ? [`  ~ ${name}${tokenText(d)}`] : [];
      for (const w of d.weakened ?? []) head.push(`      ! safety weakened: ${escapeControl(w)}`);
      const indent = d.name !== undefined ? '      ' : '  ~ ';
      return [...head, ...(d.changes ?? []).map((c) => `${indent}${escapeControl(c.path || '/')}: ${showValue(c.before)} → ${showValue(c.after)}`)];
    }
  }
}

/** The diff as text: the two sides, then the differences grouped by area, then what could not be compared. */
export function renderDiffText(result: DiffResult, a: Side, b: Side): string {
  const n = result.differences.length;
  const out = [
    `mcp-tap diff: ${n === 0 ? 'no differences' : `${n} difference${n === 1 ? '' : 's'}`}`,
    `  A  ${escapeControl(a.label)}${describe(a.baseline)}`,
    `  B  ${escapeControl(b.label)}${describe(b.baseline)}`,
  ];
  const areas = [...new Set(result.differences.map((d) => d.area))];
  for (const area of areas) {
    const title = area === 'latency' ? `latency (median ≥ ${result.thresholds.ratio}× and ≥ ${result.thresholds.minMs} ms slower)` : TITLES[area];
    out.push('', title);
    for (const d of result.differences.filter((x) => x.area === area)) out.push(...line(d));
  }
  if (result.notCompared.length > 0) {
    out.push('', 'not compared:');
    for (const s of result.notCompared) out.push(`  - ${escapeControl(s)}`);
  }
  return `${out.join('\n')}\n`;
}

/** The diff as JSON: the sides (label and server), the thresholds, the differences. */
export function renderDiffJson(result: DiffResult, a: Side, b: Side): string {
  const side = (s: Side) => ({ label: s.label, server: s.baseline.server, protocolVersion: s.baseline.protocolVersion, session: s.baseline.source.session });
  return `${JSON.stringify({ a: side(a), b: side(b), ...result, identical: result.differences.length === 0 }, null, 2)}\n`;
}
