/**
 * Buffer chunks → lines, split on byte 0x0A only (never inside a UTF-8 sequence), raw bytes kept.
 * Memory is bounded by `limit`: a longer line is never held whole; its head is kept, its bytes are
 * counted, and its content streams through a shortener that keeps the JSON shape with long strings cut.
 */

/** One line as the analysis sees it. `bytes` is the true size without the LF. */
export interface Line {
  bytes: number;
  /** The whole line without its LF, when bytes <= limit. A view of the caller's chunk or of the splitter's reused buffer: copy it to keep it past the callback. */
  data?: Buffer;
  /** When the line is longer than the limit: its first `limit` bytes (valid during the callback, like `data`). */
  head?: Buffer;
  /** When the line is longer than the limit: shortened JSON text, or null when the line is not JSON. */
  shortened?: string | null;
  /** The stream ended before the LF (torn last line). */
  partial?: boolean;
}

/** Streams an over-long line into a bounded copy. */
export interface Shortener {
  write(chunk: Buffer): void;
  /** The shortened JSON text, or null when what was written is not JSON. */
  finish(): string | null;
}

export type ShortenerFactory = (limit: number) => Shortener;

const EMPTY = Buffer.alloc(0);

const noShortener: ShortenerFactory = () => ({
  write() {},
  finish: () => null,
});

/** The carry buffer is kept between lines up to this size; a bigger one (an over-long line's head) is let go. */
const KEEP_CARRY_BYTES = 64 * 1024;

/** Line ends (0x0A) in `chunk`: how many messages a chunk the analysis never saw ended. */
export function countLineEnds(chunk: Buffer): number {
  let n = 0;
  for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) n++;
  return n;
}

/** Incremental splitter; one instance per direction. */
export class LineSplitter {
  /**
   * The start of a line that continues in the next chunk, copied (the caller may reuse its chunk). One
   * buffer reused from line to line, written with typed-array builtins: a copy and a concatenation per
   * chunk through Buffer's own methods cost more, and made V8 compile Node's Buffer code mid-session.
   */
  private carry: Buffer | null = null;
  private held = 0; // bytes in carry
  private total = 0; // bytes of the current line so far
  private shortener: Shortener | null = null;
  /** After skip(): bytes up to the next line end belong to a line whose start was lost. */
  private skipping = false;

  constructor(
    private readonly limit: number,
    private readonly onLine: (line: Line) => void,
    private readonly makeShortener: ShortenerFactory = noShortener,
  ) {}

  /** Feed a chunk; calls onLine for each completed line. Never keeps a reference to more than `limit` bytes. */
  push(chunk: Buffer): void {
    let start = 0;
    const len = chunk.length;
    if (this.skipping) {
      const nl = chunk.indexOf(0x0a);
      if (nl === -1) return;
      this.skipping = false;
      start = nl + 1;
    }
    while (start < len) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl !== -1 && this.total === 0 && nl - start <= this.limit) {
        // common case: a whole line inside one chunk, handed over without a copy
        this.onLine({ bytes: nl - start, data: chunk.subarray(start, nl) });
        start = nl + 1;
        continue;
      }
      const end = nl === -1 ? len : nl;
      if (end > start) this.take(chunk, start, end);
      if (nl === -1) return;
      this.flushLine(false);
      start = nl + 1;
    }
  }

  /**
   * Bytes of the stream were lost before the next push, holding `lineEnds` line ends: the line in
   * progress is dropped, and unless the lost bytes ended with a line end, the stream resumes after the
   * next one (the rest of a line whose start is gone). Returns how many lines were lost: one per line
   * end, one more for the line the lost bytes leave unfinished — less the line an earlier loss left
   * unfinished when its rest is still being skipped (it was counted then).
   */
  skip(lostEndedLine: boolean, lineEnds: number): number {
    const counted = this.skipping;
    this.held = 0;
    this.total = 0;
    this.shortener = null;
    // no line end: the lost bytes only continue the line already counted as lost
    if (counted && lineEnds === 0) return 0;
    this.skipping = !lostEndedLine;
    return lineEnds - (counted ? 1 : 0) + (lostEndedLine ? 0 : 1);
  }

  /** End of stream: a pending line without LF is emitted with partial: true. */
  end(): void {
    if (this.total > 0) this.flushLine(true);
  }

  /** Bytes of the line in progress (for diagnostics and tests). */
  get pendingBytes(): number {
    return this.total;
  }

  /** Bytes of the line in progress that the splitter keeps in memory (never more than the limit). */
  get heldBytes(): number {
    return this.held;
  }

  /** Size of the buffer kept for lines split across chunks (at most 64 KiB between lines). */
  get carryBytes(): number {
    return this.carry?.length ?? 0;
  }

  private take(chunk: Buffer, start: number, end: number): void {
    const n = end - start;
    this.total += n;
    if (this.shortener) {
      this.shortener.write(chunk.subarray(start, end));
      return;
    }
    // keep only what we need, up to the limit: the head of an over-long line
    const keep = Math.min(n, this.limit - this.held);
    if (keep > 0) this.hold(chunk, start, start + keep);
    if (keep === n) return;
    // Overflow: stream everything into the shortener.
    this.shortener = this.makeShortener(this.limit);
    this.shortener.write(this.carry!.subarray(0, this.held));
    this.shortener.write(chunk.subarray(start + keep, end));
  }

  /** Appends chunk[start, end) to the carry buffer, growing it (at most to the limit). */
  private hold(chunk: Buffer, start: number, end: number): void {
    const need = this.held + end - start;
    let carry = this.carry;
    if (carry === null || carry.length < need) {
      const grown = Buffer.allocUnsafe(Math.min(this.limit, Math.max(need, 2 * (carry?.length ?? 0), 4096)));
      if (carry !== null && this.held > 0) grown.set(carry.subarray(0, this.held));
      this.carry = carry = grown;
    }
    carry.set(chunk.subarray(start, end), this.held);
    this.held = need;
  }

  private flushLine(partial: boolean): void {
    // a view of the carry buffer: valid during the callback, like a whole line's view of its chunk
    const joined = this.carry === null ? EMPTY : this.carry.subarray(0, this.held);
    // a line joined from two chunks has the shape of a whole one ({bytes, data}, built the same way): an
    // object grown member by member has another, and the analysis compiled for the first deoptimised
    const line: Line = this.shortener ? { bytes: this.total, head: joined, shortened: this.shortener.finish() } : { bytes: this.total, data: joined };
    if (partial) line.partial = true;
    this.held = 0;
    this.total = 0;
    this.shortener = null;
    try {
      this.onLine(line);
    } finally {
      if (this.carry !== null && this.carry.length > KEEP_CARRY_BYTES) this.carry = null;
    }
  }
}
