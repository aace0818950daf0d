/**
 * search_messages and get_message: the `tail` filters over one session or every log, a page at a time,
 * and one record with the request or answer it pairs with. Filters run on redacted records, so a search
 * for a secret finds nothing (it would otherwise tell that the secret is there).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { InputError } from '../errors.js';
import type { LogRecord } from '../log/record.js';
import { mayBeRefusedProbe } from '../protocol/probe.js';
import { buildFilter, parseFilterOptions } from '../view/filters.js';
import { charsFor, encodeCursor, ensureFits, fitList, resultTokens, toolResult } from './budget.js';
import type { McpContext } from './context.js';
import type { LogEntry } from './log-source.js';
import { matchView, messageView } from './message-view.js';
import type { getMessageInput, searchMessagesInput } from './schemas.js';
import { positionOf } from './tools-sessions.js';

/** Bytes of logs one search_messages call reads before it answers with what it found and a cursor. */
export const SCAN_BYTES = 256 * 1024 * 1024;
/** Logs a cursor may name (the logs still to search). */
const MAX_CURSOR_LOGS = 500;

/** Where a search goes on: the logs left to search (the current one first) and the byte offset in it. */
interface Position {
  logs: string[];
  offset: number;
}

interface Found extends Position {
  view: Record<string, unknown>;
}

function cursorPosition(p: Record<string, unknown> | undefined): Position | undefined {
  if (p === undefined) return undefined;
  const logs = p['logs'];
  const offset = p['offset'];
  if (!Array.isArray(logs) || logs.length > MAX_CURSOR_LOGS || !logs.every((l) => typeof l === 'string') || typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
    throw new InputError('cursor is not one this server gave');
  }
  return { logs: logs as string[], offset };
}

/** search_messages: records matching the tail filters, logs newest first, each log in file order. */
export async function searchMessagesTool(ctx: McpContext, args: z.infer<typeof searchMessagesInput>, scanBytes = SCAN_BYTES): Promise<CallToolResult> {
  const { query, position } = positionOf('search_messages', args);
  const filter = buildFilter({ ...parseFilterOptions({ method: args.method, from: args.from, kind: args.kind, errors: args.errors, grep: args.text, slow: args.slowerThanMs }), ...(args.tool?.length ? { target: args.tool } : {}) });
  // the body is parsed for records the filters keep (their preview), and whole when the text is searched
  const needsBody = args.text !== undefined ? () => true : (h: LogRecord) => mayBeRefusedProbe(h) || filter(h);
  let sessionId: string | undefined;
  let names: string[];
  if (args.session !== undefined) {
    const f = await ctx.reader.session(args.session, args.log);
    sessionId = f.summary.id;
    names = [f.log.name];
  } else {
    names = args.log !== undefined ? [(await ctx.reader.source.log(args.log)).name] : (await ctx.reader.logs()).map((l) => l.name);
  }
  const at = cursorPosition(position);
  if (at) names = at.logs;
  const limit = args.limit ?? 50;
  // matches past what one answer can hold are not collected: they would be cut (the answer is about twice their JSON)
  const enough = charsFor(ctx.maxTokens) / 2;
  let collected = 0;
  const found: Found[] = [];
  const warnings: string[] = [];
  let read = 0;
  let stop: Position | undefined;
  outer: for (let i = 0; i < names.length; i++) {
    let log: LogEntry;
    try {
      log = await ctx.reader.source.log(names[i]!);
    } catch {
      continue; // removed since the last page
    }
    const from = i === 0 && at ? at.offset : 0;
    const before = read;
    let last = from;
    try {
      for await (const { record, next } of ctx.reader.records(log, { needsBody, start: from, ...(sessionId !== undefined ? { session: sessionId } : {}), onProgress: (b) => (read = before + b) })) {
        last = next ?? last;
        if (filter(record)) {
          if (found.length === limit || collected > enough) {
            // one more match exists: the next page starts after the last one kept (maybe in an earlier log)
            stop = { logs: found[found.length - 1]!.logs, offset: found[found.length - 1]!.offset };
            break outer;
          }
          const view = matchView(record, log.name);
          collected += JSON.stringify(view).length;
          found.push({ view, logs: names.slice(i), offset: last });
        }
        if (read > scanBytes) {
          stop = { logs: names.slice(i), offset: last };
          break outer;
        }
      }
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      warnings.push(ctx.reader.text(`skipped ${log.name}: ${err.message}`));
    }
  }
  const cursorOf = (p: Position) => encodeCursor('search_messages', query, { logs: p.logs, offset: p.offset });
  return fitList(
    { items: found, offset: 0, more: stop !== undefined },
    (items, nextCursor) => ({ matches: items.map((f) => f.view), complete: nextCursor === undefined, ...(nextCursor ? { nextCursor } : {}), ...(warnings.length ? { warnings } : {}) }),
    // after k matches: where the k-th was, or (all of them kept) where the search stopped
    (k) => (k === 0 ? cursorOf(at ?? { logs: names, offset: 0 }) : k < found.length ? cursorOf(found[k - 1]!) : cursorOf(stop!)),
    ctx.maxTokens,
    'pass a smaller limit or narrower filters',
  );
}

const isAnswer = (kind: string): boolean => kind === 'response' || kind === 'error';

/** get_message: one record by session and seq, with the request it answers or the answer it got. */
export async function getMessageTool(ctx: McpContext, args: z.infer<typeof getMessageInput>): Promise<CallToolResult> {
  const f = await ctx.reader.session(args.session, args.log);
  const session = f.summary.id;
  const seq = args.seq;
  let target: { record: LogRecord; line: number } | undefined;
  let answer: { record: LogRecord; line: number } | undefined;
  const answers = (r: LogRecord) => (isAnswer(r.kind) && r.reqSeq === seq) || (r.kind === 'batch' && Array.isArray(r.items) && r.items.some((it) => it.reqSeq === seq));
  for await (const item of ctx.reader.records(f.log, { session, needsBody: (h) => h.seq === seq || answers(h) })) {
    const r = item.record;
    if (r.seq === seq && !target) {
      target = item;
      if (r.kind !== 'request' && !(r.kind === 'batch')) break; // only requests are answered
    } else if (target && answers(r)) {
      answer = item;
      break;
    }
  }
  if (!target) throw new InputError(`no record with seq ${seq} in session ${session} (${f.log.name}); its records run from ${f.summary.firstSeq} to ${f.summary.lastSeq}`);
  let request: { record: LogRecord; line: number } | undefined;
  const reqSeq = target.record.reqSeq;
  if (typeof reqSeq === 'number' && (isAnswer(target.record.kind) || target.record.kind === 'notification')) {
    for await (const item of ctx.reader.records(f.log, { session, needsBody: (h) => h.seq === reqSeq })) {
      if (item.record.seq === reqSeq) {
        request = item;
        break;
      }
    }
  }
  const other = request ?? answer;
  // the budget in characters, halved (the text repeats the structured content), shared 3:1 with the pair
  let share = charsFor(ctx.maxTokens) / 2 - 2000;
  for (let round = 0; round < 8; round++) {
    const main = Math.floor(other ? share * 0.7 : share);
    const pair = Math.floor(share * 0.3);
    const out: Record<string, unknown> = {
      log: f.log.name,
      session,
      message: messageView(target.record, target.line, main),
      ...(request ? { request: messageView(request.record, request.line, pair) } : {}),
      ...(answer ? { answer: messageView(answer.record, answer.line, pair) } : {}),
    };
    const result = toolResult(out);
    if (resultTokens(result) <= ctx.maxTokens) return result;
    share *= 0.6; // escapes made the text longer than its share
  }
  return ensureFits(toolResult({ log: f.log.name, session, message: messageView(target.record, target.line, 256) }), ctx.maxTokens, 'the record is too large to show');
}
