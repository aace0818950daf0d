/**
 * check_session and diff_sessions: `check --format json` of a session with the CLI's options (parsed by
 * the CLI's own planCheck), and `diff --format json` of two sessions; their lists a page at a time.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { planCheck } from '../check/check-options.js';
import { DEFAULT_MIN_MS, DEFAULT_RATIO, diffBaselines } from '../check/diff.js';
import type { Problem, RequestOutcome } from '../check/report.js';
import { loadTokenizer } from '../lens/context/tokenizer.js';
import { encodeCursor, fitList, offsetOf } from './budget.js';
import type { McpContext } from './context.js';
import type { checkSessionInput, diffSessionsInput } from './schemas.js';
import { positionOf } from './tools-sessions.js';

/**
 * The problems of one page, and the requests they are about (renumbered): passing requests are
 * counted in omittedRequests as the report does for a long session.
 */
function pageRequests(problems: readonly Problem[], requests: readonly RequestOutcome[]): { problems: Problem[]; requests: RequestOutcome[] } {
  const kept: RequestOutcome[] = [];
  const index = new Map<number, number>();
  const out = problems.map((p) => {
    if (p.request === undefined || requests[p.request] === undefined) return p;
    let i = index.get(p.request);
    if (i === undefined) {
      i = kept.push(requests[p.request]!) - 1;
      index.set(p.request, i);
    }
    return { ...p, request: i };
  });
  return { problems: out, requests: kept };
}

/** check_session: the verdict and its problems (check's JSON report), judged on redacted records. */
export async function checkSessionTool(ctx: McpContext, args: z.infer<typeof checkSessionInput>): Promise<CallToolResult> {
  const { query, position } = positionOf('check_session', args);
  const offset = offsetOf(position);
  const f = await ctx.reader.session(args.session, args.log);
  // the CLI's own parsing: the same values mean the same, and a bad one gets the CLI's message
  const plan = planCheck([], {
    format: 'json',
    session: f.summary.id,
    ...(args.failOn ? { failOn: args.failOn } : {}),
    ...(args.maxMs ? { maxMs: args.maxMs } : {}),
    ...(args.expectTools ? { expectTool: args.expectTools } : {}),
    ...(args.forbidTools ? { forbidTool: args.forbidTools } : {}),
    ...(args.maxContextTokens !== undefined ? { maxContextTokens: String(args.maxContextTokens) } : {}),
    ...(args.maxResultTokens !== undefined ? { maxResultTokens: String(args.maxResultTokens) } : {}),
  });
  const warnings: string[] = [];
  const report = await ctx.reader.check(f, plan, (m) => warnings.push(ctx.reader.text(m)));
  const limit = args.limit ?? 100;
  const problems = report.problems.slice(offset, offset + limit);
  const listed = report.requests.length;
  return fitList(
    { items: problems, offset, more: offset + limit < report.problems.length },
    (items, nextCursor) => {
      const page = pageRequests(items, report.requests);
      return {
        ...report,
        log: f.log.name,
        problems: page.problems,
        problemsFrom: offset,
        problemsTotal: report.problems.length,
        requests: page.requests,
        omittedRequests: report.omittedRequests + listed - page.requests.length,
        warnings: [...report.warnings.map((w) => ctx.reader.text(w)), ...warnings],
        ...(nextCursor ? { nextCursor } : {}),
      };
    },
    (o) => encodeCursor('check_session', query, { offset: o }),
    ctx.maxTokens,
    'pass a smaller limit',
  );
}

/** diff_sessions: what changed from session a to session b (tools, schemas, capabilities, latency, findings). */
export async function diffSessionsTool(ctx: McpContext, args: z.infer<typeof diffSessionsInput>): Promise<CallToolResult> {
  const { query, position } = positionOf('diff_sessions', args);
  const offset = offsetOf(position);
  const fa = await ctx.reader.session(args.a, args.aLog);
  const fb = await ctx.reader.session(args.b, args.bLog);
  const tokenizer = await loadTokenizer();
  const a = await ctx.reader.baseline(fa, tokenizer);
  const b = await ctx.reader.baseline(fb, tokenizer);
  const result = diffBaselines(a, b, { ratio: args.ratio ?? DEFAULT_RATIO, minMs: args.minMs ?? DEFAULT_MIN_MS, tokenizer });
  const side = (f: typeof fa, x: typeof a) => ({ session: f.summary.id, log: f.log.name, server: x.server, protocolVersion: x.protocolVersion });
  const limit = args.limit ?? 100;
  return fitList(
    { items: result.differences.slice(offset, offset + limit), offset, more: offset + limit < result.differences.length },
    (items, nextCursor) => ({
      a: side(fa, a),
      b: side(fb, b),
      identical: result.differences.length === 0,
      thresholds: result.thresholds,
      differences: items,
      differencesFrom: offset,
      differencesTotal: result.differences.length,
      notCompared: result.notCompared,
      ...(nextCursor ? { nextCursor } : {}),
    }),
    (o) => encodeCursor('diff_sessions', query, { offset: o }),
    ctx.maxTokens,
    'pass a smaller limit',
  );
}
