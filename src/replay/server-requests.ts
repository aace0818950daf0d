/**
 * The server's own requests during a replay (sampling, roots, elicitation, ping). The replay plays the
 * recorded client, so each one is compared with the request the recorded server made and answered with
 * the answer the recorded client gave, under the id the live server chose. A request the recording has
 * no answer for gets error -32601; a ping the recording does not hold is answered and only counted.
 * Pure: messages in, reply lines and report entries out.
 */
import type { JsonRpcId } from '../log/record.js';
import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { AnswerBook } from './answer-book.js';
import { compareMessages, type CompareOptions } from './compare.js';
import type { ReplayPlan } from './plan.js';
import { targetOf, type RecMsg } from './recorded.js';
import { entryFields, type ReplayEntry } from './result.js';
import { recordLargerAdvice } from './shortened.js';

/** What to do with one request of the server. */
export interface ServerRequestOutcome {
  /** The line to send back; undefined leaves the request unanswered (as the recorded client did). */
  reply: string | undefined;
  /** The report row and where it sorts; none for a ping, which is only counted. */
  row?: { entry: ReplayEntry; order: number };
}

/** The server's requests of one replay, answered from the recording. */
export class ServerRequests {
  private readonly book: AnswerBook;
  private readonly seen = new Set<RecMsg>();
  private pingCount = 0;

  constructor(
    private readonly plan: ReplayPlan,
    private readonly compare: Omit<CompareOptions, 'shortened'>,
  ) {
    this.book = new AnswerBook(plan.serverBook, { byTarget: false });
  }

  /**
   * One request of the live server. `order` is where a request the recording lacks, or one asked
   * again, sorts in the report: just after the last line the replay sent.
   */
  onRequest(el: JsonObject, method: string, order: number): ServerRequestOutcome {
    const id = el['id'] as JsonRpcId;
    const match = this.book.match(method, el['params']);
    if (!match) {
      if (method === 'ping') {
        this.pingCount++;
        return { reply: JSON.stringify({ jsonrpc: '2.0', id, result: {} }) };
      }
      const entry: ReplayEntry = { type: 'server-request', status: 'unexpected', failed: true, method, liveId: id, notes: ['the recorded client never got this request; answered with error -32601'] };
      const target = targetOf(method, el['params']);
      if (target !== undefined) entry.target = target;
      const reply = JSON.stringify({
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: `mcp-tap replay: the recorded session has no ${method} request to take the answer from` },
      });
      return { reply, row: { entry, order } };
    }
    const rec = match.entry.request;
    const first = !this.seen.has(rec);
    this.seen.add(rec);
    const cmp = compareMessages(rec.msg, el, { ...this.compare, shortened: rec.truncated });
    const entry: ReplayEntry = {
      type: 'server-request',
      status: cmp.differences.length === 0 ? 'same' : 'different',
      failed: cmp.differences.length > 0,
      seq: rec.seq,
      ...entryFields(rec),
      liveId: id,
      notes: [],
    };
    if (cmp.differences.length > 0) entry.differences = cmp.differences;
    if (cmp.ignored > 0) entry.ignored = cmp.ignored;
    if (cmp.partial) entry.partial = true;
    if (!first) entry.notes.push(`asked again; answered with the recorded answer to #${rec.seq} once more`);
    const row = { entry, order: first ? rec.seq : order };
    const answer = match.entry.answer;
    if (!answer || !isObject(answer.msg)) {
      entry.notes.push('the recorded client did not answer this request; left unanswered');
      return { reply: undefined, row };
    }
    entry.answerSeq = answer.seq;
    if (answer.truncated) {
      entry.notes.push(`answered with a shortened copy: the log cut the recorded answer${answer.bytes !== undefined ? ` (${answer.bytes} bytes)` : ''}; ${recordLargerAdvice(answer.bytes)}`);
    }
    const reply: JsonObject = { jsonrpc: '2.0', id };
    if ('error' in answer.msg) reply['error'] = answer.msg['error'];
    else reply['result'] = answer.msg['result'];
    return { reply: JSON.stringify(reply), row };
  }

  /** The requests the recorded server made that the live one has not (yet). */
  missing(): RecMsg[] {
    return this.plan.expectedServerRequests.filter((m) => !this.seen.has(m));
  }

  /** Pings the recording did not hold, answered with an empty result. */
  get pings(): number {
    return this.pingCount;
  }
}
