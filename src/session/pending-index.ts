/**
 * The pending requests' chain heads by id. A Map under this churn (an id in and one out per request)
 * allocates a new table every few dozen requests; once one of those tables has reached V8's old
 * generation, each dead table keeps its successor and its last entries alive through the remembered
 * set, so from then on every pending request of the session is promoted and left to full GCs (in about
 * half the runs of the pipelined bench). The values live in an array of slots written in place, found
 * through IdSlots: int32 ids (nearly all) in typed arrays, nothing for the collector to trace.
 */
import type { RequestId } from '../protocol/jsonrpc.js';
import { IdSlots } from './int-slots.js';

/** Cells the int index starts with (it grows with the pending requests, up to its bound). */
const INITIAL_CELLS = 256;

/** Id → value for the ids pending now; see the top of this file. */
export class PendingIndex<V> {
  private readonly index: IdSlots;
  private readonly slots: (V | undefined)[] = [];
  private readonly free: number[] = [];

  /** `maxEntries`: the most ids ever pending at once. */
  constructor(maxEntries: number) {
    this.index = new IdSlots(maxEntries, Math.min(INITIAL_CELLS, 2 ** Math.ceil(Math.log2(2 * maxEntries + 2))));
  }

  // The slots and their length are read on every call, not only on the branch that needs them: with one
  // request in flight a freed slot is always there, and a load first made when more are in flight,
  // thousands of messages in, has no type feedback and deoptimises the request path that inlines it.
  get(id: RequestId): V | undefined {
    const slots = this.slots;
    const s = this.index.get(id);
    return s === undefined ? undefined : slots[s];
  }

  set(id: RequestId, v: V): void {
    const slots = this.slots;
    const end = slots.length;
    const s = this.index.get(id);
    if (s !== undefined) {
      slots[s] = v;
      return;
    }
    const slot = this.free.length > 0 ? this.free.pop()! : end;
    slots[slot] = v;
    this.index.set(id, slot);
  }

  delete(id: RequestId): void {
    const s = this.index.get(id);
    if (s === undefined) return;
    this.index.delete(id, s);
    this.slots[s] = undefined;
    this.free.push(s);
  }
}
