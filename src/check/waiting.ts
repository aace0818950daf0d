/**
 * Requests a bounded check no longer lists and that still wait for their answer, kept as one number
 * each: who sent it, its method and target (interned), whether its id is null, whether it was cancelled.
 * That is all judging it needs once its answer comes (or never does), so a session that leaves hundreds
 * of thousands of requests open costs four bytes per record of the log from the first one kept here on
 * (a column indexed by seq: seqs of a session grow by one a record), not a fact object. Pure.
 */
import type { JudgedRequest } from './request-results.js';

/** Distinct (from, method, target) kept; a request of a further one is not made compact (the caller keeps it whole). */
const MAX_NAMES = 1 << 16;

const ID_NULL = 1;
const CANCELLED = 2;

export class CompactWaiting {
  private readonly byName = new Map<string, number>();
  private readonly names: Array<{ from: 'client' | 'server'; method: string; target?: string }> = [];
  /** seq - base → 1 + name index × 4 + flags; 0: no request waiting there */
  private slots = new Int32Array(1024);
  private base = -1;
  private count = 0;

  get size(): number {
    return this.count;
  }

  private get(seq: number): number | undefined {
    const i = seq - this.base;
    if (this.base < 0 || i < 0 || i >= this.slots.length) return undefined;
    const v = this.slots[i]!;
    return v === 0 ? undefined : v - 1;
  }

  private set(seq: number, v: number | undefined): void {
    const i = seq - this.base;
    const was = this.slots[i]!;
    this.slots[i] = v === undefined ? 0 : v + 1;
    this.count += (v === undefined ? 0 : 1) - (was === 0 ? 0 : 1);
  }

  /** Keeps request `seq` compactly; false when it cannot (too many distinct names). */
  add(seq: number, q: { from: 'client' | 'server'; method: string; target?: string; id: unknown }): boolean {
    const key = `${q.from}\u0000${q.method}\u0000${q.target ?? '\u0001'}`;
    let i = this.byName.get(key);
    if (i === undefined) {
      if (this.names.length >= MAX_NAMES) return false;
      i = this.names.length;
      this.names.push({ from: q.from, method: q.method, ...(q.target !== undefined ? { target: q.target } : {}) });
      this.byName.set(key, i);
    }
    if (this.base < 0) this.base = seq;
    const at = seq - this.base;
    if (at < 0 || at >= 1 << 30) return false; // not in the order of the log: kept whole by the caller
    if (at >= this.slots.length) {
      let n = this.slots.length;
      while (n <= at) n *= 2;
      const grown = new Int32Array(n);
      grown.set(this.slots);
      this.slots = grown;
    }
    this.set(seq, i * 4 + (q.id === null ? ID_NULL : 0));
    return true;
  }

  /** A notifications/cancelled from `from` for request `seq`. */
  cancel(seq: number, from: string): void {
    const v = this.get(seq);
    if (v !== undefined && this.names[v >> 2]!.from === from) this.set(seq, v | CANCELLED);
  }

  /** The request `seq` answered by a record from `from` (the other side), removed; undefined when it is not here. */
  take(seq: number, from: string): JudgedRequest | undefined {
    const v = this.get(seq);
    if (v === undefined || this.names[v >> 2]!.from === from) return undefined;
    this.set(seq, undefined);
    return this.judged(v);
  }

  /**
   * Hands every request still waiting (at the end of the session) to `fn`, in one reused object (not to
   * be kept): a few hundred thousand of them allocate nothing.
   */
  forEachRest(fn: (q: JudgedRequest) => void): void {
    const q: { from: 'client' | 'server'; method: string; target?: string; id: null | 0; cancelled: boolean } = { from: 'client', method: '', id: 0, cancelled: false };
    for (const slot of this.slots) {
      if (slot === 0) continue;
      const v = slot - 1;
      const n = this.names[v >> 2]!;
      q.from = n.from;
      q.method = n.method;
      if (n.target !== undefined) q.target = n.target;
      else delete q.target;
      q.id = v & ID_NULL ? null : 0;
      q.cancelled = (v & CANCELLED) !== 0;
      fn(q);
    }
  }

  private judged(v: number): JudgedRequest {
    const n = this.names[v >> 2]!;
    return { ...n, id: v & ID_NULL ? null : 0, cancelled: (v & CANCELLED) !== 0 };
  }
}
