/**
 * The relay thread's end of the ring: a copy of each relayed chunk goes in with its arrival time, and
 * mcp-tap's events in between, in order. It never waits. When the ring is full the chunks are held (no
 * copy: a relayed chunk is never reused) until the analysis makes room. Past `paceBytes` held, the
 * protocol streams are paced (the owner holds their sources until half of it is in the ring: the
 * analysis that far behind is a flood no host sends, and the log keeps every message) while the
 * server's stderr, which is no protocol, is dropped and counted rather than slowed; once the owner finds
 * the analysis stuck, every stream is. A count goes into the ring as a Lost entry where the bytes would
 * have been, so the log states the gap at its place. Pure but for Atomics on the shared header.
 */
import { countLineEnds } from '../framing/line-splitter.js';
import { entrySize, Kind, maxPayload, placeEntry, R, ringViews, SLEEPING, W, WANTS_ROOM, writeEntryHead, writeWrap, type RingViews, type StreamKind } from './ring.js';

/** A chunk, event or count waiting for room in the ring. */
interface Held {
  kind: Kind;
  payload: Buffer;
  time: number;
  /** Lost entries: the dropped bytes and lines of `stream`, still growing while they are the last held. */
  lost?: { stream: StreamKind; bytes: number; lines: number; endsLine: boolean };
}

export interface RingWriterOptions {
  /** Bytes of relayed chunks held for the ring before the protocol streams are paced and stderr dropped. */
  paceBytes: number;
  /** Pace the protocol streams' sources (true) or let them go (false). */
  onPace: (on: boolean) => void;
  /** Once per outage: relayed bytes are being dropped (and counted), with what was held then. */
  onBehind: (heldBytes: number) => void;
}

const EMPTY = Buffer.alloc(0);

/** Writes into the ring from the relay thread; see the file comment. */
export class RingWriter {
  private readonly v: RingViews;
  private readonly max: number;
  private w: number;
  private readonly held: Held[] = [];
  private heldBytes = 0;
  private pacing = false;
  /** The analysis is stuck: every stream is dropped past paceBytes until the held chunks are in the ring. */
  private stuckNow = false;
  /** Dropping since the last time the held chunks were all in the ring (one warning per outage). */
  private behind = false;
  /** Relayed bytes and lines dropped in all (the log says where). */
  droppedBytes = 0;
  droppedLines = 0;

  constructor(
    sab: SharedArrayBuffer,
    private readonly opts: RingWriterOptions,
  ) {
    this.v = ringViews(sab);
    this.max = maxPayload(this.v.capacity);
    this.w = Atomics.load(this.v.header, W);
  }

  /** A copy of a relayed chunk of one stream. */
  chunk(stream: StreamKind, chunk: Buffer, time: number): void {
    if (this.held.length === 0) {
      const placed = this.place(stream, chunk, time);
      if (placed === chunk.length) return this.publish();
      this.publish();
      chunk = chunk.subarray(placed);
    }
    const over = this.heldBytes + chunk.length > this.opts.paceBytes;
    if (over && (stream === Kind.Stderr || this.stuckNow)) return this.drop(stream, chunk, time);
    this.hold({ kind: stream, payload: chunk, time });
    if (over && !this.pacing) {
      this.pacing = true;
      this.opts.onPace(true);
    }
  }

  /** The analysis makes no progress while the relay is paced: let the relay go, drop past the bound. */
  stuck(): void {
    this.stuckNow = true;
    this.endPace();
  }

  /** Whether the protocol streams are paced now. */
  get paced(): boolean {
    return this.pacing;
  }

  /** Where the analysis has read up to (it moves while the analysis makes progress). */
  readOffset(): number {
    return Atomics.load(this.v.header, R);
  }

  /** One of mcp-tap's events (JSON {name, fields}), an End or the Finish: never dropped. */
  control(kind: Kind, payload: Buffer, time: number): void {
    if (this.held.length === 0 && this.place(kind, payload, time) === payload.length) return this.publish();
    this.hold({ kind, payload, time });
  }

  /** The worker freed room: moves what is held into the ring, in order. */
  retry(): void {
    const held = this.held;
    let moved = 0;
    while (moved < held.length) {
      const h = held[moved]!;
      const payload = h.lost ? Buffer.from(JSON.stringify(h.lost)) : h.payload;
      const placed = this.place(h.kind, payload, h.time);
      if (h.lost) {
        if (placed < payload.length) break;
      } else if (placed < payload.length) {
        // what did not fit stays held (a Lost entry goes whole or not at all)
        h.payload = payload.subarray(placed);
        this.heldBytes -= placed;
        break;
      } else if (h.kind <= Kind.Stderr) this.heldBytes -= payload.length;
      moved++;
    }
    if (moved > 0) held.splice(0, moved);
    this.publish();
    if (this.pacing && this.heldBytes <= this.opts.paceBytes / 2) this.endPace();
    if (held.length > 0) this.wantRoom();
    else if (moved > 0) {
      this.behind = false;
      this.stuckNow = false;
      Atomics.store(this.v.header, WANTS_ROOM, 0);
    }
  }

  private endPace(): void {
    if (!this.pacing) return;
    this.pacing = false;
    this.opts.onPace(false);
  }

  /** Chunks, events and counts waiting for room in the ring now. */
  get waiting(): number {
    return this.held.length;
  }

  private hold(h: Held): void {
    this.held.push(h);
    if (h.lost === undefined && h.kind <= Kind.Stderr) this.heldBytes += h.payload.length;
    this.wantRoom();
  }

  private drop(stream: StreamKind, chunk: Buffer, time: number): void {
    const lines = countLineEnds(chunk);
    this.droppedBytes += chunk.length;
    this.droppedLines += lines;
    const last = this.held[this.held.length - 1];
    const endsLine = chunk[chunk.length - 1] === 0x0a;
    if (last?.lost?.stream === stream) {
      last.lost.bytes += chunk.length;
      last.lost.lines += lines;
      last.lost.endsLine = endsLine;
    } else this.hold({ kind: Kind.Lost, payload: EMPTY, time, lost: { stream, bytes: chunk.length, lines, endsLine } });
    if (!this.behind) {
      this.behind = true;
      this.opts.onBehind(this.heldBytes);
    }
  }

  private wantRoom(): void {
    Atomics.store(this.v.header, WANTS_ROOM, 1);
    this.wake();
  }

  /**
   * Copies `payload` into the ring as entries of `kind` (in pieces when it is larger than one entry may
   * be); returns how many bytes went in. Entries become visible to the worker at publish().
   */
  private place(kind: Kind, payload: Buffer, time: number): number {
    const v = this.v;
    const r = Atomics.load(v.header, R);
    let done = 0;
    do {
      const n = Math.min(this.max, payload.length - done);
      const size = entrySize(n);
      const at = placeEntry(this.w, r, size, v.capacity);
      if (at < 0) return done;
      if (at !== this.w) writeWrap(v, this.w);
      writeEntryHead(v, at, kind, n, time);
      v.data.set(n === payload.length ? payload : payload.subarray(done, done + n), at + 16);
      this.w = at + size === v.capacity ? 0 : at + size;
      done += n;
    } while (done < payload.length);
    return done;
  }

  /** Makes the entries written so far visible, and wakes the worker if it sleeps. */
  private publish(): void {
    Atomics.store(this.v.header, W, this.w);
    this.wake();
  }

  private wake(): void {
    const h = this.v.header;
    if (Atomics.load(h, SLEEPING) === 1) {
      Atomics.store(h, SLEEPING, 0);
      Atomics.notify(h, SLEEPING);
    }
  }
}
