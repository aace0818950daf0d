/**
 * The analysis worker's end of the ring: takes every entry the relay published, in order. Each payload
 * is copied out into one reused buffer and its room handed back before it is analysed, so the relay gets
 * the room at once. The payload is valid only during the handler (the analysis copies what it keeps, as
 * the splitter's Line contract says): a Buffer per entry left the worker's memory full of copies waiting
 * for a scavenge. Pure but for Atomics on the shared header.
 */
import { Kind, R, readEntry, ringViews, SLEEPING, W, WANTS_ROOM, type Entry, type RingViews } from './ring.js';

/** Atomics.waitAsync (Node 16+; its type is in TypeScript's ES2024 lib, which Node 20 does not wholly have). */
interface WaitAsync {
  waitAsync(a: Int32Array, index: number, value: number, timeout?: number): { async: false; value: string } | { async: true; value: Promise<string> };
}

/** One entry taken from the ring; `payload` is valid only during the call. */
export type EntryHandler = (kind: Kind, payload: Buffer, time: number) => void;

/** Reads the ring on the worker; see the file comment. */
export class RingReader {
  private readonly v: RingViews;
  private r: number;
  private readonly entry: Entry = { kind: Kind.Client, time: 0, start: 0, end: 0 };
  /** Where payloads are copied out (grown to the largest entry, at most a quarter of the ring). */
  private scratch = Buffer.allocUnsafe(64 * 1024);

  constructor(sab: SharedArrayBuffer) {
    this.v = ringViews(sab);
    this.r = Atomics.load(this.v.header, R);
  }

  /** True when the relay has published entries not taken yet. */
  pending(): boolean {
    return Atomics.load(this.v.header, W) !== this.r;
  }

  /**
   * Takes every published entry (at most `limit`), calling `on` for each; returns how many. Calls
   * `onRoom` afterwards when the relay holds chunks it had no room for.
   */
  drain(on: EntryHandler, onRoom: () => void, limit = Infinity): number {
    const v = this.v;
    const e = this.entry;
    let n = 0;
    let w = Atomics.load(v.header, W);
    while (this.r !== w && n < limit) {
      if (readEntry(v, this.r, e) === null) {
        this.r = 0;
        continue;
      }
      const length = e.end - e.start;
      if (length > this.scratch.length) this.scratch = Buffer.allocUnsafe(length);
      const payload = this.scratch.subarray(0, length);
      payload.set(v.data.subarray(e.start, e.end));
      const next = (e.end + 7) & ~7;
      this.r = next >= v.capacity ? 0 : next;
      Atomics.store(v.header, R, this.r);
      n++;
      on(e.kind, payload, e.time);
      if (this.r === w) w = Atomics.load(v.header, W);
    }
    if (Atomics.load(v.header, WANTS_ROOM) === 1) {
      Atomics.store(v.header, WANTS_ROOM, 0);
      onRoom();
    }
    return n;
  }

  /**
   * Waits until the relay publishes something (or `timeoutMs` passes) without holding the event loop.
   * Announces the sleep first, so the relay knows to wake it; returns at once when entries are pending.
   */
  async sleep(timeoutMs: number): Promise<void> {
    const h = this.v.header;
    Atomics.store(h, SLEEPING, 1);
    if (this.pending()) {
      Atomics.store(h, SLEEPING, 0);
      return;
    }
    const waited = (Atomics as unknown as WaitAsync).waitAsync(h, SLEEPING, 1, timeoutMs);
    if (waited.async) {
      // a pending waitAsync does not keep a thread's event loop alive: this timer does, meanwhile
      const alive = setTimeout(() => {}, timeoutMs);
      await waited.value;
      clearTimeout(alive);
    }
    Atomics.store(h, SLEEPING, 0);
  }
}
