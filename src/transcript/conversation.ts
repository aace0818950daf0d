/**
 * The conversation of one session in order, each request with the answers that pair with it, and the
 * server's stderr apart: the body of the Markdown and HTML exports. Pure.
 */
import { isQuietExchange } from '../log/http-records.js';
import type { LogRecord } from '../log/record.js';

/** One step of the conversation. */
export type Entry =
  /** A request and its answers (none when unanswered; more than one when the server answered twice). */
  | { type: 'exchange'; request: LogRecord; answers: LogRecord[] }
  /** A notification, batch, invalid line, or an answer that pairs with no request of this session. */
  | { type: 'message'; record: LogRecord }
  /** One of mcp-tap's own events that matters while reading (stream closed, exit, signal, gap…). */
  | { type: 'event'; record: LogRecord };

export interface Conversation {
  entries: Entry[];
  stderr: LogRecord[];
}

/** Events that the header already shows; they are left out of the conversation. */
const HEADER_EVENTS = new Set(['start', 'spawn', 'lifecycle', 'end']);

/** Orders one session's records into exchanges, messages and events, with stderr apart. */
export function buildConversation(records: readonly LogRecord[]): Conversation {
  const entries: Entry[] = [];
  const stderr: LogRecord[] = [];
  const exchanges = new Map<number, { type: 'exchange'; request: LogRecord; answers: LogRecord[] }>();
  for (const r of records) {
    switch (r.kind) {
      case 'stderr':
        stderr.push(r);
        break;
      case 'event':
        if ((typeof r.event !== 'string' || !HEADER_EVENTS.has(r.event)) && !isQuietExchange(r)) entries.push({ type: 'event', record: r });
        break;
      case 'request': {
        const e = { type: 'exchange' as const, request: r, answers: [] as LogRecord[] };
        exchanges.set(r.seq, e);
        entries.push(e);
        break;
      }
      case 'response':
      case 'error': {
        const e = typeof r.reqSeq === 'number' ? exchanges.get(r.reqSeq) : undefined;
        if (e && e.request.from !== r.from) e.answers.push(r);
        else entries.push({ type: 'message', record: r });
        break;
      }
      default:
        entries.push({ type: 'message', record: r });
    }
  }
  return { entries, stderr };
}
