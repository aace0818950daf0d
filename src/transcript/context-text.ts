/**
 * The context cost as people read it, in `stats` and the Markdown export: what the server costs before
 * the first message (and which tools cost most), the tools never called, the results by tool and the
 * largest ones. Pure; `clean` makes wire names safe for the output (terminal escapes, Markdown).
 */
import type { ContextCost, DefinitionCost } from '../lens/context/context-cost.js';
import { formatBytes } from './format.js';

/** `12,345`. */
export const tokens = (n: number): string => n.toLocaleString('en-US');

/** How many definitions are listed by name before the rest are summed. */
const SHOWN = 10;

/** The line under every token figure: which tokenizer, and that other models differ. */
export function tokenizerNote(c: ContextCost): string {
  return `tokens: ${c.tokenizer} (GPT-4o and later); an estimate for Claude, Gemini and other models${estimated(c) ? '; ~ marks estimates (a shortened copy in the log, or results past the first 8 MiB of a session, at their tool\'s rate)' : ''}`;
}

function estimated(c: ContextCost): boolean {
  return [c.tools, c.prompts, c.resources, c.resourceTemplates].some((l) => l?.total.estimated) || c.instructions?.estimated === true || c.results.estimated === true || c.largestResults.some((r) => r.estimated);
}

const t = (n: number, est?: boolean): string => `${est ? '~' : ''}${tokens(n)}`;

function byCost(items: readonly DefinitionCost[], clean: (s: string) => string): string {
  const top = [...items].sort((a, b) => b.tokens - a.tokens || a.name.localeCompare(b.name));
  const shown = top.slice(0, SHOWN).map((d) => `${clean(d.name)} ${t(d.tokens, d.estimated)}`);
  const rest = top.slice(SHOWN);
  if (rest.length > 0) shown.push(`${rest.length} more ${t(rest.reduce((s, d) => s + d.tokens, 0))}`);
  return shown.join(', ');
}

/** The context cost of one session as lines of text (no trailing newline). */
export function contextLines(c: ContextCost, clean: (s: string) => string): string[] {
  const out: string[] = [];
  const tools = c.tools;
  const parts: string[] = [];
  if (tools) parts.push(`${tools.count} tool definition${tools.count === 1 ? '' : 's'} ${t(tools.total.tokens, tools.total.estimated)} (${formatBytes(tools.total.bytes)})`);
  if (c.instructions) parts.push(`instructions ${t(c.instructions.tokens, c.instructions.estimated)}`);
  out.push(`before the first message: ${tokens(c.beforeFirstMessage)} tokens${parts.length > 0 ? ` — ${parts.join(', ')}` : ' (no tools/list answer in the session)'}`);
  if (tools && tools.count > 0) out.push(`  tools by cost: ${byCost(tools.items, clean)}`);
  if (tools && c.neverCalled.length > 0) {
    const sum = c.neverCalled.reduce((s, d) => s + d.tokens, 0);
    out.push(`  never called: ${c.neverCalled.length} of ${tools.count} tools, ${tokens(sum)} tokens: ${byCost(c.neverCalled, clean)}`);
  }
  const others = ([['prompts', c.prompts], ['resources', c.resources], ['resource templates', c.resourceTemplates]] as const)
    .filter(([, l]) => l !== null)
    .map(([name, l]) => `${name} ${l!.count} (${t(l!.total.tokens, l!.total.estimated)})`);
  if (others.length > 0) out.push(`  listed, not in context until used: ${others.join(', ')}`);
  const r = c.results;
  if (r.count > 0) {
    out.push(`tool results: ${r.count}, ${t(r.tokens, r.estimated)} tokens (${formatBytes(r.bytes)})`);
    out.push(`  by tool: ${c.perTool.slice(0, SHOWN).map((p) => `${clean(p.tool)} ${t(p.tokens, p.estimated)} in ${p.calls} (max ${tokens(p.maxTokens)})`).join(', ')}${c.perTool.length > SHOWN ? `, ${c.perTool.length - SHOWN} more` : ''}`);
    out.push(`  largest: ${c.largestResults.map((x) => `${clean(x.tool)} #${x.seq} ${t(x.tokens, x.estimated)}${x.mediaBytes ? ` + ${formatBytes(x.mediaBytes)} media` : ''}`).join(', ')}`);
  }
  return out;
}
