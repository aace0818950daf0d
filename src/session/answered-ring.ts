/**
 * Answered requests of one side, remembered for duplicate answers, cancels that raced their answer and
 * id reuse: the newest `capacity` of them, as columns of a ring, found through an id → slot index that
 * holds exactly the ids in the ring.
 * Nothing per request is kept as an object: an answered request's entry dies young instead of being
 * promoted and collected later (which cost about a tenth of the analysis). A lookup builds it again.
 */
import type { RequestId } from '../protocol/jsonrpc.js';
import { IdSlots } from './int-slots.js';
import type { PendingEntry } from './request-entry.js';

/** The answered requests one side sent, newest `capacity` of them; see the top of this file. */
export class AnsweredRing {
  /** id → slot for the ids in the ring. */
  private readonly slots: IdSlots;
  private ids: (RequestId | undefined)[] = [];
  private seqs = new Float64Array(0);
  /** Seq of the answer; -1 when none was given. */
  private answerSeqs = new Float64Array(0);
  private times = new Float64Array(0);
  private methods: string[] = [];
  private targets: (string | undefined)[] = [];
  private next = 0;

  constructor(readonly capacity: number) {
    this.slots = new IdSlots(capacity);
  }

  /** Remembers `e` as answered by the record `answerSeq` (the newest entry for its id). */
  add(e: PendingEntry, answerSeq: number | undefined): void {
    const k = this.next;
    if (k === this.seqs.length) this.grow();
    this.next = k + 1 === this.capacity ? 0 : k + 1;
    // the slot's previous request is forgotten (unless its id was answered again since, elsewhere). The
    // call is made for a slot never used too (id 0 there maps to another slot, or to none: nothing
    // changes), so that it runs from the first answer: a call first made when the ring wraps, thousands of
    // answers in, is one the optimised code has no feedback for, and it deoptimised the answer path then
    this.slots.delete(this.ids[k] ?? 0, k);
    this.ids[k] = e.id;
    this.seqs[k] = e.seq;
    this.answerSeqs[k] = answerSeq ?? -1;
    this.times[k] = e.time;
    this.methods[k] = e.method;
    this.targets[k] = e.target;
    this.slots.set(e.id, k);
  }

  /** The columns grow with the session up to `capacity` (a short session keeps them small). */
  private grow(): void {
    const size = Math.min(this.capacity, Math.max(64, this.seqs.length * 2));
    const widen = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.seqs = widen(this.seqs);
    this.answerSeqs = widen(this.answerSeqs);
    this.times = widen(this.times);
  }

  /** The answered request with this id, while it is remembered (a new object each time). */
  get(id: RequestId): PendingEntry | undefined {
    const k = this.slots.get(id);
    if (k === undefined) return undefined;
    const e: PendingEntry = { id, method: this.methods[k]!, seq: this.seqs[k]!, time: this.times[k]! };
    const target = this.targets[k];
    if (target !== undefined) e.target = target;
    const a = this.answerSeqs[k]!;
    if (a >= 0) e.answerSeq = a;
    return e;
  }

  /** Forgets the id (it was evicted while pending and is remembered elsewhere now). */
  delete(id: RequestId): void {
    this.slots.delete(id);
  }
}
