/**
 * Records waiting for the disk, already encoded: appended into reusable 1 MiB buffers (arenas) the moment
 * they are written, with where each record ends, so the file sink writes whole arenas and still knows
 * record boundaries (for rotation, and for counting what a failed write lost). Nothing is kept per record
 * but two numbers: no strings or buffers for the garbage collector, and the same few arenas are reused
 * so the memory stays warm. Pure: no I/O.
 */
import type { LogRecord } from './record.js';
import { writeHead } from './head-bytes.js';
import { serializeHead } from './serialize.js';

const ARENA_BYTES = 1024 * 1024;
/** Space a record head may take before the string path is used instead (notes with long texts). */
const HEAD_ROOM = 64 * 1024;
const CLOSE = Buffer.from('}\n');
/** Byte 0 of an arena is a line end: a write that must first end a torn line starts there. */
const DATA_START = 1;
const KEEP_FREE = 2;

/** An arena and its per-record columns, reused together once written. */
interface Batch {
  buf: Buffer;
  /** Where each record ends (exclusive). */
  ends: Float64Array;
  /** Per record: the loss count it reports (gap records), put back if it is lost. */
  carries: Float64Array;
  used: number;
  /** Records in the arena (the columns' entries in use). */
  n: number;
  /** Index of the first record not yet taken for writing. */
  head: number;
}

/**
 * Column entries an arena starts with, grown by doubling (a record is at least a few dozen bytes). Small
 * on purpose: the first arena grows its columns within the session's first records, so the growth is
 * code V8 has feedback for when it optimises the record path; an arena first outgrowing 1,024 records
 * thousands of records in (small messages) deoptimised that path in the middle of the traffic.
 */
const COLUMN_START = 16;

/** A slice of queued records handed to one write. */
export interface Job {
  buf: Buffer;
  /** The arena buf belongs to, with its columns (reused once released). */
  batch: Batch;
  /** Byte range to write; `start` includes the leading line end when one was asked for. */
  start: number;
  /** The write starts with a line end that ends a torn line in the file. */
  lead: boolean;
  end: number;
  /** Record ends within buf (for partial writes). */
  ends: Float64Array;
  carries: number;
  /** Per record: the loss count it carries. */
  carryList: Float64Array;
  records: number;
  /** The last job of its arena: release() may reuse the arena. */
  last: boolean;
}

export class RecordQueue {
  private fill: Batch | null = null;
  private readonly sealed: Batch[] = [];
  private readonly free: Batch[] = [];
  /** Encoded bytes queued. */
  bytes = 0;
  /** Records queued. */
  count = 0;
  /** Where the record appended last lies (its bytes are read during the append's caller, see last()). */
  private lastBuf: Buffer | null = null;
  private lastStart = 0;
  private lastEnd = 0;

  /** Appends `text` (a whole record, or a head whose message `body` and `}\n` follow); returns its size. */
  appendText(text: string, body: Buffer | undefined, carries: number): number {
    const b = this.room(text.length * 3 + (body ? body.length + CLOSE.length : 0));
    let at = b.used;
    at += b.buf.write(text, at, 'utf8');
    if (body) at = this.tail(b, at, body);
    return this.commit(b, at, carries);
  }

  /** Appends a record whose message is `body` (verbatim JSON); returns its size. */
  appendRecord(record: LogRecord, body: Buffer, carries: number): number {
    const b = this.room(HEAD_ROOM + body.length + CLOSE.length);
    const at = writeHead(record, b.buf, b.used, HEAD_ROOM);
    if (at < 0) return this.appendText(serializeHead(record), body, carries);
    return this.commit(b, this.tail(b, at, body), carries);
  }

  /** Takes back the record appended last (it did not fit the queue's bound); returns the loss count it carried. */
  dropLast(): number {
    this.lastBuf = null;
    const b = this.fill!;
    const carries = b.carries[--b.n]!;
    const end = b.n > 0 ? b.ends[b.n - 1]! : DATA_START;
    this.bytes -= b.used - end;
    this.count--;
    b.used = end;
    return carries;
  }

  /** The encoded bytes of the record appended last; valid only until the next call on the queue. */
  last(): Buffer | undefined {
    return this.lastBuf === null ? undefined : this.lastBuf.subarray(this.lastStart, this.lastEnd);
  }

  /** Forgets the record appended last (the next one may not be queued). */
  forgetLast(): void {
    this.lastBuf = null;
  }

  /** Size of the next record to be taken. */
  firstSize(): number {
    const b = this.sealed[0] ?? this.fill;
    if (!b || b.head >= b.n) return 0;
    return b.ends[b.head]! - (b.head === 0 ? DATA_START : b.ends[b.head - 1]!);
  }

  /**
   * The next records for one write, all from one arena: every queued one, or (with `room`) the first and
   * then as many as fit in `room` bytes. `lineEnd`: start the write with a line end.
   */
  take(room: number | undefined, lineEnd: boolean): Job | null {
    const b = this.sealed[0] ?? this.fill;
    if (!b || b.head >= b.n) return null;
    // new records go to another arena while this one is being written
    if (b === this.fill) this.seal();
    const first = b.head;
    const start = first === 0 ? DATA_START : b.ends[first - 1]!;
    let n = b.n;
    if (room !== undefined) {
      n = first + 1;
      let left = room - (b.ends[first]! - start);
      while (n < b.n) {
        const size = b.ends[n]! - b.ends[n - 1]!;
        if (size > left) break;
        left -= size;
        n++;
      }
    }
    let carries = 0;
    for (let i = first; i < n; i++) carries += b.carries[i]!;
    b.head = n;
    const last = n === b.n;
    if (last) this.sealed.shift();
    const end = b.ends[n - 1]!;
    this.bytes -= end - start;
    this.count -= n - first;
    // the byte before a record is always a line end: the previous record's, or the arena's byte 0
    return { buf: b.buf, batch: b, start: lineEnd ? start - 1 : start, lead: lineEnd, end, ends: b.ends.slice(first, n), carries, carryList: b.carries.slice(first, n), records: n - first, last };
  }

  /** A job is written (or given up): its arena may be reused. */
  release(job: Job): void {
    if (job.last && job.buf.length === ARENA_BYTES && this.free.length < KEEP_FREE) this.free.push(job.batch);
  }

  /** Drops everything queued; returns how many records and what they carried. */
  dropAll(): { records: number; carries: number } {
    let records = 0;
    let carries = 0;
    for (const b of this.fill ? [...this.sealed, this.fill] : this.sealed) {
      for (let i = b.head; i < b.n; i++) {
        records++;
        carries += b.carries[i]!;
      }
    }
    this.sealed.length = 0;
    this.fill = null;
    this.bytes = 0;
    this.count = 0;
    return { records, carries };
  }

  /** An arena with `need` bytes free, starting a new one when the current one is short. */
  private room(need: number): Batch {
    const b = this.fill;
    if (b !== null && b.buf.length - b.used >= need) return b;
    this.seal();
    let fresh: Batch | undefined;
    if (need + DATA_START <= ARENA_BYTES) fresh = this.free.pop() ?? newBatch(ARENA_BYTES);
    else fresh = newBatch(need + DATA_START, 1); // one record larger than an arena: its own buffer
    fresh.buf[0] = 0x0a;
    fresh.used = DATA_START;
    fresh.n = 0;
    fresh.head = 0;
    this.fill = fresh;
    return fresh;
  }

  /**
   * Ends the arena being filled, if any. take() and room() share it, and room() calls it even when there
   * is none: its first full arena comes late in a session (a burst of more than an arena between two
   * writes), and code first run then, in an optimised caller, deoptimised the record path.
   */
  private seal(): void {
    const b = this.fill;
    if (b === null) return;
    this.fill = null;
    if (b.n > 0) this.sealed.push(b);
    else if (b.buf.length === ARENA_BYTES) this.free.push(b);
  }

  private tail(b: Batch, at: number, body: Buffer): number {
    const buf = b.buf;
    const n = body.length;
    if (n <= 64) for (let k = 0; k < n; k++) buf[at + k] = body[k]!;
    else buf.set(body, at);
    at += n;
    buf[at] = 0x7d;
    buf[at + 1] = 0x0a;
    return at + 2;
  }

  private commit(b: Batch, at: number, carries: number): number {
    const size = at - b.used;
    this.lastBuf = b.buf;
    this.lastStart = b.used;
    this.lastEnd = at;
    b.used = at;
    if (b.n === b.ends.length) {
      b.ends = widen(b.ends);
      b.carries = widen(b.carries);
    }
    b.ends[b.n] = at;
    b.carries[b.n++] = carries;
    this.bytes += size;
    this.count++;
    return size;
  }
}

function newBatch(bytes: number, records = COLUMN_START): Batch {
  return { buf: Buffer.allocUnsafeSlow(bytes), ends: new Float64Array(records), carries: new Float64Array(records), used: DATA_START, n: 0, head: 0 };
}

/** The column with twice the room, its entries kept. */
function widen(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * What a write that stopped at byte `offset` of `job` did not write: the records not wholly in the file
 * and the loss counts they carried; `torn` when the file now ends inside a line (bytes of a record got
 * there, or the line end meant to end an earlier torn line did not). A record that got there but for its
 * line end is in the file, not lost: readers read it, and the next write ends its line.
 */
export function unwrittenOf(job: Job, offset: number): { records: number; carries: number; torn: boolean } {
  let i = 0;
  while (i < job.ends.length && job.ends[i]! <= offset) i++;
  const firstStart = i > 0 ? job.ends[i - 1]! : job.lead ? job.start + 1 : job.start;
  const endless = i < job.ends.length && offset === job.ends[i]! - 1 && offset > firstStart;
  if (endless) i++;
  const torn = endless || (offset > firstStart && i < job.ends.length) || (job.lead && offset === job.start);
  let carries = 0;
  for (let k = i; k < job.carryList.length; k++) carries += job.carryList[k]!;
  return { records: job.ends.length - i, carries, torn };
}
