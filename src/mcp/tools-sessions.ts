/**
 * list_sessions, get_session and session_stats: thin adapters over what `ls`, the export header and
 * `stats --json` compute (session summaries, SummaryBuilder, StatsBuilder), on records from the reader.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { InputError } from '../errors.js';
import { contextNeedsBody } from '../lens/context/context-cost.js';
import { loadTokenizer } from '../lens/context/tokenizer.js';
import type { LogRecord } from '../log/record.js';
import type { SessionSummary } from '../log/session-summary.js';
import { StatsBuilder, statsNeedsBody } from '../transcript/stats.js';
import { SummaryBuilder, summaryNeedsBody } from '../transcript/summary.js';
import { decodeCursor, encodeCursor, ensureFits, fitList, offsetOf, toolResult, resultTokens } from './budget.js';
import { isoTime, type McpContext } from './context.js';
import type { FoundSession } from './log-source.js';
import type { getSessionInput, listSessionsInput, sessionStatsInput } from './schemas.js';
import { sessionUri } from './session-uri.js';

const AGE = /^(\d{1,6})\s*(s|m|min|h|d|w)$/i;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `since`: an ISO 8601 time or an age (30m, 6h, 2d) → epoch ms. */
export function parseSince(text: string, now: number): number {
  const age = AGE.exec(text.trim());
  if (age) return now - Number(age[1]) * UNIT_MS[age[2]!.toLowerCase()]!;
  const t = Date.parse(text);
  if (!Number.isFinite(t)) throw new InputError(`since takes an ISO 8601 time or an age such as 30m, 6h or 2d, got ${JSON.stringify(text.slice(0, 60))}`);
  return t;
}

/** The cursor's position, checked against the question it belongs to. */
export function positionOf(tool: string, args: Record<string, unknown>): { query: Record<string, unknown>; position: Record<string, unknown> | undefined } {
  const { cursor, limit: _pageSize, ...query } = args;
  return { query, position: typeof cursor === 'string' ? decodeCursor(tool, query, cursor) : undefined };
}

/** One session as list_sessions shows it. */
function sessionRow(f: FoundSession): Record<string, unknown> {
  const s = f.summary;
  return {
    id: s.id,
    uri: sessionUri(s.id),
    log: f.log.name,
    ...(s.serverName !== undefined ? { server: s.serverName } : {}),
    ...(s.start !== undefined ? { started: isoTime(s.start) } : {}),
    ...(s.durationMs !== undefined ? { durationMs: s.durationMs } : {}),
    messages: s.messages,
    errors: s.errors,
    toolErrors: s.toolErrors,
    findings: s.findings,
    ended: s.ended,
    ...(s.exitCode !== undefined ? { exitCode: s.exitCode } : {}),
    ...(s.signal !== undefined ? { signal: s.signal } : {}),
    ...(s.command !== undefined ? { command: s.command } : {}),
    ...(s.args !== undefined ? { args: s.args } : {}),
  };
}

const hasProblems = (s: SessionSummary): boolean => s.errors + s.toolErrors + s.findings > 0;

/** list_sessions: what `mcp-tap ls` lists, filtered, newest first, a page at a time. */
export async function listSessionsTool(ctx: McpContext, args: z.infer<typeof listSessionsInput>, now = Date.now()): Promise<CallToolResult> {
  const { query, position } = positionOf('list_sessions', args);
  const offset = offsetOf(position);
  const since = args.since !== undefined ? parseSince(args.since, now) : undefined;
  const needle = args.server?.toLowerCase();
  const all = (await ctx.reader.sessions(args.log)).filter(
    (f) =>
      (needle === undefined || (f.summary.serverName ?? '').toLowerCase().includes(needle)) &&
      (since === undefined || (f.summary.start ?? f.summary.end ?? -Infinity) >= since) &&
      (!args.errorsOnly || hasProblems(f.summary)),
  );
  const limit = args.limit ?? 50;
  const rows = all.slice(offset, offset + limit).map(sessionRow);
  const warnings = ctx.reader.problems();
  return fitList(
    { items: rows, offset, more: offset + limit < all.length },
    (items, nextCursor) => ({ source: ctx.reader.label, total: all.length, sessions: items, ...(nextCursor ? { nextCursor } : {}), ...(warnings.length ? { warnings } : {}) }),
    (o) => encodeCursor('list_sessions', query, { offset: o }),
    ctx.maxTokens,
    'pass a smaller limit',
  );
}

/** get_session: the header and counts of one session, what the top of `export` shows. */
export async function getSessionTool(ctx: McpContext, args: z.infer<typeof getSessionInput>): Promise<CallToolResult> {
  const f = await ctx.reader.session(args.session, args.log);
  const b = new SummaryBuilder();
  for await (const { record } of ctx.reader.records(f.log, { session: f.summary.id, needsBody: summaryNeedsBody })) b.add(record);
  const s = b.finish();
  const out: Record<string, unknown> = {
    id: f.summary.id,
    uri: sessionUri(f.summary.id),
    log: f.log.name,
    ...(s.header.start ? { started: isoTime(s.header.start) } : {}),
    header: s.header,
    kinds: s.kinds,
    errors: s.errors,
    refusedProbes: s.refusedProbes,
    isErrorResults: s.isErrorResults,
    findings: s.findings,
    unanswered: s.unanswered,
    unansweredCount: s.unansweredCount,
    cancelled: s.cancelled,
    slowest: s.slowest,
    tasks: s.tasks,
    lost: s.lost,
  };
  // the lists of requests left open are the only parts that grow with the session: halved until it fits
  let unanswered = s.unanswered;
  let cancelled = s.cancelled;
  let result = toolResult(out);
  while (resultTokens(result) > ctx.maxTokens && unanswered.length + cancelled.length > 0) {
    if (unanswered.length >= cancelled.length) unanswered = unanswered.slice(0, Math.floor(unanswered.length / 2));
    else cancelled = cancelled.slice(0, Math.floor(cancelled.length / 2));
    result = toolResult({ ...out, unanswered, cancelled, omitted: { unanswered: s.unanswered.length - unanswered.length, cancelled: s.cancelled.length - cancelled.length } });
  }
  return ensureFits(result, ctx.maxTokens, 'search_messages and get_message read the session piece by piece');
}

/** session_stats: `stats --json` of one session, or of every session of a log pooled; the per-tool rows a page at a time. */
export async function sessionStatsTool(ctx: McpContext, args: z.infer<typeof sessionStatsInput>): Promise<CallToolResult> {
  const { query, position } = positionOf('session_stats', args);
  const offset = offsetOf(position);
  const all = args.session === 'all';
  const f = await ctx.reader.session(all ? undefined : args.session, args.log);
  const b = new StatsBuilder({ tokenizer: await loadTokenizer() });
  const needsBody = (h: LogRecord) => statsNeedsBody(h) || contextNeedsBody(h);
  for await (const { record } of ctx.reader.records(f.log, { ...(all ? {} : { session: f.summary.id }), needsBody })) b.add(record);
  const stats = b.finish();
  // the rows (methods, then tools) a page at a time: the only part that grows with what the session did
  const rows = [...stats.methods.map((row) => ({ table: 'methods' as const, row })), ...stats.tools.map((row) => ({ table: 'tools' as const, row }))];
  // and the requests left unanswered (count kept), halved until the rest fits beside a row
  let unanswered = stats.unanswered.requests;
  const rest = () => ({ log: f.log.name, ...stats, unanswered: { ...stats.unanswered, requests: unanswered } });
  while (unanswered.length > 0 && resultTokens(toolResult({ ...rest(), methods: rows.slice(0, 1).map((x) => x.row), tools: [] })) > ctx.maxTokens) {
    unanswered = unanswered.slice(0, Math.floor(unanswered.length / 2));
  }
  return fitList(
    { items: rows.slice(offset), offset, more: false },
    (items, nextCursor) => ({
      ...rest(),
      methods: items.filter((x) => x.table === 'methods').map((x) => x.row),
      tools: items.filter((x) => x.table === 'tools').map((x) => x.row),
      ...(offset > 0 || nextCursor ? { rowsFrom: offset, rowsTotal: rows.length } : {}),
      ...(unanswered.length < stats.unanswered.requests.length ? { unansweredOmitted: stats.unanswered.requests.length - unanswered.length } : {}),
      ...(nextCursor ? { nextCursor } : {}),
    }),
    (o) => encodeCursor('session_stats', query, { offset: o }),
    ctx.maxTokens,
    all ? 'ask for one session instead of all' : 'read the session with search_messages',
  );
}
