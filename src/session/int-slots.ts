/**
 * A map from int32 keys to small non-negative ints (ring slots), in typed arrays: open addressing with
 * linear probing and backward-shift deletion. Request ids are nearly always such numbers; a Map under
 * the same churn reallocates its table again and again, and the garbage collector copies and promotes
 * those tables. This one allocates only when it grows. Pure, but for one warm-up run at load (`exercise`).
 */
import type { RequestId } from '../protocol/jsonrpc.js';

/** Ids the typed-array indexes take (nearly all request ids). */
const isInt32 = (id: unknown): id is number => typeof id === 'number' && (id | 0) === id;

export class IntSlots {
  private keys: Int32Array;
  /** slot + 1; 0 marks an empty cell. */
  private vals: Int32Array;
  private shift: number;
  private count = 0;

  /**
   * The table starts at the size `maxEntries` needs (up to 32,768 cells, 256 KiB, whose pages the system
   * maps only when touched): growing it rehashes every key in a loop that the compiler then optimises
   * on the side, twice, for a function that runs a handful of times. `initialCells` (a power of two):
   * a smaller start where the bound is rarely approached (the pending requests' index), and for tests.
   */
  constructor(
    private readonly maxEntries: number,
    initialCells = Math.min(1 << 15, Math.max(64, 2 ** Math.ceil(Math.log2(2 * maxEntries + 2)))),
  ) {
    this.keys = new Int32Array(initialCells);
    this.vals = new Int32Array(initialCells);
    this.shift = 32 - Math.log2(initialCells);
  }

  get size(): number {
    return this.count;
  }

  private home(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> this.shift;
  }

  get(key: number): number | undefined {
    const keys = this.keys;
    const vals = this.vals;
    const mask = keys.length - 1;
    for (let i = this.home(key); ; i = (i + 1) & mask) {
      const v = vals[i]!;
      if (v === 0) return undefined;
      if (keys[i] === key) return v - 1;
    }
  }

  set(key: number, slot: number): void {
    if ((this.count + 1) * 2 > this.keys.length && this.keys.length < 2 * this.maxEntries + 2) this.grow();
    const keys = this.keys;
    const vals = this.vals;
    const mask = keys.length - 1;
    for (let i = this.home(key); ; i = (i + 1) & mask) {
      const v = vals[i]!;
      if (v === 0) {
        keys[i] = key;
        vals[i] = slot + 1;
        this.count++;
        return;
      }
      if (keys[i] === key) {
        vals[i] = slot + 1;
        return;
      }
    }
  }

  /** Removes `key` if it maps to `slot` (or to anything, without `slot`). */
  delete(key: number, slot?: number): void {
    const keys = this.keys;
    const vals = this.vals;
    const mask = keys.length - 1;
    let i = this.home(key);
    for (; ; i = (i + 1) & mask) {
      const v = vals[i]!;
      if (v === 0) return;
      if (keys[i] === key) {
        if (slot !== undefined && v !== slot + 1) return;
        break;
      }
    }
    this.count--;
    // backward shift: move later cells of the probe run into the hole when their home allows it
    for (let j = i; ; ) {
      vals[i] = 0;
      for (;;) {
        j = (j + 1) & mask;
        if (vals[j] === 0) return;
        const h = this.home(keys[j]!);
        // keep cell j where it is when its home lies cyclically in (i, j]
        if (i <= j ? i < h && h <= j : i < h || h <= j) continue;
        break;
      }
      keys[i] = keys[j]!;
      vals[i] = vals[j]!;
      i = j;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldVals = this.vals;
    this.keys = new Int32Array(oldKeys.length * 2);
    this.vals = new Int32Array(oldKeys.length * 2);
    this.shift--;
    this.count = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldVals[i] !== 0) this.set(oldKeys[i]!, oldVals[i]! - 1);
  }
}

/**
 * Runs every path of IntSlots on scratch tables: probing past a taken cell (get, set, delete), growing,
 * a delete that finds nothing or another slot, and the backward shift that moves cells on delete. A
 * session with at most a few dozen requests in flight never takes them, so without this they would first
 * run when more are in flight, thousands of messages in, and V8 would throw away the optimised code of
 * the request and answer paths for want of type feedback. Four rounds: V8 records feedback only from a
 * function's first few calls on, so every path runs again after that.
 */
function exercise(): void {
  for (let round = 0; round < 4; round++) {
    const grown = new IntSlots(48, 4);
    for (let k = 0; k < 40; k++) grown.set(k * 7, k);
    for (let k = 0; k < 40; k++) grown.set(k * 7, grown.get(k * 7)! + 1);
    grown.get(1);
    grown.delete(1);
    grown.delete(0, 5);
    // three keys in four cells (no room to grow): long probe runs, so lookups probe past taken cells
    // and deletes shift cells back
    for (let a = 0; a < 12; a++) {
      const dense = new IntSlots(1, 4);
      for (let k = 0; k < 3; k++) dense.set(a + k * 5, k);
      for (let k = 0; k < 3; k++) dense.get(a + k * 5);
      dense.get(a + 100);
      for (let k = a % 3, n = 0; n < 3; k = (k + 1) % 3, n++) dense.delete(a + k * 5, n & 1 ? undefined : k);
    }
  }
}
exercise();

/** Request id → slot: int32 ids (nearly all) through IntSlots, any other id in a Map. */
export class IdSlots {
  private readonly ints: IntSlots;
  private readonly others = new Map<RequestId, number>();

  /** `maxEntries` and `initialCells` as IntSlots takes them. */
  constructor(maxEntries: number, initialCells?: number) {
    this.ints = new IntSlots(maxEntries, initialCells);
  }

  get(id: RequestId): number | undefined {
    return isInt32(id) ? this.ints.get(id) : this.others.get(id);
  }

  set(id: RequestId, slot: number): void {
    if (isInt32(id)) this.ints.set(id, slot);
    else this.others.set(id, slot);
  }

  /** Removes `id` if it maps to `slot` (or to anything, without `slot`). */
  delete(id: RequestId, slot?: number): void {
    if (isInt32(id)) this.ints.delete(id, slot);
    else if (slot === undefined || this.others.get(id) === slot) this.others.delete(id);
  }
}
