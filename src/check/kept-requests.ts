/**
 * The requests a bounded check keeps of a long session (GatherBound): the first `listed` whole, and
 * beyond them only the ones that matter (not plainly answered, initialize and listings, a --max-ms limit
 * exceeded, a --forbid-tool called), each only while one of its reasons — its error code, its rule, its
 * method — has had fewer than `perRule`. The rest are counted (omitted.ts), and requests still waiting
 * past WAITING_WHOLE wait as one number each (waiting.ts). Memory then grows with neither the session
 * nor its failures.
 */
import { KeepFirst } from '../log/keep-first.js';
import { RESULTS_PER_RULE, type GatherBound, type RequestFact } from './facts.js';
import { countOmitted, noneOmitted, type OmittedRequests } from './omitted.js';
import { reasonsToKeep, type JudgedRequest } from './request-results.js';
import { isListing } from './server-facts.js';
import { CompactWaiting } from './waiting.js';

/** However many rules and error codes occur, check keeps at most this many failing requests, and notes. */
export const KEPT_IN_ALL = 20 * RESULTS_PER_RULE;

/** Past the listed ones, requests waiting for an answer kept whole; further ones are kept compact (waiting.ts). */
const WAITING_WHOLE = 20_000;

/** A request answered and, when it is a task call, its task ended. */
const done = (q: RequestFact): boolean => q.answer !== undefined && (q.task === undefined || q.task.ended);

/** The bounded keeping of one session's requests, told of each request when it comes and when it is done. */
export class KeptRequests {
  /** What the requests left out count for (SessionFacts.omitted). */
  readonly omitted: OmittedRequests;
  /** Each request's place in the session while it may still be listed. */
  private readonly ordinal = new Map<RequestFact, number>();
  private nextOrdinal = 0;
  private readonly kept = new Set<RequestFact>();
  private readonly listed: RequestFact[] = [];
  /** Kept requests per reason. */
  private readonly reasons: KeepFirst;
  /** Requests waiting past WAITING_WHOLE, a number each. */
  private readonly compact = new CompactWaiting();

  constructor(private readonly bound: GatherBound) {
    this.reasons = new KeepFirst({ perKey: bound.perRule ?? RESULTS_PER_RULE, maxTotal: KEPT_IN_ALL });
    this.omitted = noneOmitted(bound);
  }

  /** A new request; false when it waits compactly (it is then no fact the gatherer tracks). */
  add(seq: number, q: RequestFact, inBatch: boolean): boolean {
    const b = this.bound;
    // a session that leaves very many requests open: the further ones wait as one number each
    const plain = !inBatch && q.method !== 'initialize' && !isListing(q.method);
    if (plain && this.nextOrdinal >= b.listed && this.ordinal.size - this.kept.size >= (b.waitingWhole ?? WAITING_WHOLE) && this.compact.add(seq, q)) {
      this.nextOrdinal++;
      return false;
    }
    this.ordinal.set(q, this.nextOrdinal++);
    if (this.nextOrdinal <= b.listed) this.keep(q);
    return true;
  }

  /** A compact request was cancelled. */
  cancel(reqSeq: number, from: string): void {
    this.compact.cancel(reqSeq, from);
  }

  /** The compact request an answer answers, taken out of waiting (undefined: none). */
  takeWaiting(reqSeq: number, from: string): JudgedRequest | undefined {
    return this.compact.take(reqSeq, from);
  }

  /** Counts a request that is not listed. */
  count(q: JudgedRequest): void {
    countOmitted(this.omitted, q, this.bound);
  }

  /**
   * A request is done: past the listed ones it stays when it matters and its reason has room; a listed
   * one uses up its reason's room too.
   */
  settle(q: RequestFact): void {
    if (!this.ordinal.has(q)) return;
    if (this.kept.has(q)) {
      for (const k of this.reasonsOf(q)) this.reasons.take(k);
      return;
    }
    if (this.reasonsOf(q).length > 0 && this.admit(q)) {
      this.keep(q);
      return;
    }
    this.ordinal.delete(q);
    this.count(q);
  }

  /** The kept requests and those still waiting for an answer (as far as their reasons have room), in log order. */
  finish(): RequestFact[] {
    const order = this.ordinal;
    // listed requests still waiting use up their reasons' room first (they come first in the log)
    for (const q of this.kept) if (!done(q)) for (const k of this.reasonsOf(q)) this.reasons.take(k);
    const waiting = [...order.keys()].filter((q) => !this.kept.has(q));
    const shown: RequestFact[] = [];
    for (const q of waiting) {
      if (this.admit(q)) {
        this.kept.add(q);
        shown.push(q);
      } else {
        order.delete(q);
        this.count(q);
      }
    }
    const requests = [...this.listed, ...shown].sort((a, b) => order.get(a)! - order.get(b)!);
    this.compact.forEachRest((w) => this.count(w));
    return requests;
  }

  private reasonsOf(q: RequestFact): string[] {
    return reasonsToKeep(q, this.bound, q.method === 'initialize' || isListing(q.method));
  }

  /** Takes a request's reasons from their quotas; true when one of them still had room. */
  private admit(q: RequestFact): boolean {
    const reasons = this.reasonsOf(q);
    const room = reasons.some((k) => this.reasons.hasRoom(k));
    if (room) for (const k of reasons) if (this.reasons.hasRoom(k)) this.reasons.take(k);
    return room;
  }

  private keep(q: RequestFact): void {
    this.kept.add(q);
    this.listed.push(q);
  }
}
