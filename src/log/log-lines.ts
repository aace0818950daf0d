/**
 * A log file's bytes → its lines, split on LF with bounded memory: a line is handed over whole, or, when it
 * cannot be a record (its first non-blank byte is not `{`) or is longer than the cap, as its head and its
 * length. Pure.
 */

/** Bytes of a line kept for messages when the line itself is not kept. */
export const HEAD_BYTES = 320;

/** JSON whitespace. */
export const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;

/** What the splitter hands over for each line. */
export type RawLine =
  | { line: number; start?: number; next: number; data: Buffer; complete: boolean }
  | { line: number; start?: number; next: number; head: Buffer; bytes: number; complete: boolean; reason: 'long' | 'foreign' };

/**
 * Buffer → lines on LF, with bounded memory: a line that cannot be a record (its first non-blank byte is
 * not `{`) or that is longer than the cap keeps only its head.
 */
export class LogLineSplitter {
  private parts: Buffer[] = [];
  private held = 0;
  private bytes = 0;
  private head: Buffer[] = [];
  private headLen = 0;
  private mode: 'hold' | 'long' | 'foreign' = 'hold';
  private sawContent = false;
  private lineNo = 1;
  /** File offset where the line being gathered starts. */
  private lineStart: number;

  /** `pos`: the file offset of the first byte it is given. */
  constructor(
    private readonly cap: number,
    private pos = 0,
  ) {
    this.lineStart = pos;
  }

  push(chunk: Buffer, out: RawLine[]): void {
    const base = this.pos;
    this.pos += chunk.length;
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      if (end > start) this.take(chunk, start, end);
      if (nl === -1) return;
      out.push(this.flush(true, base + nl + 1));
      start = nl + 1;
    }
  }

  end(out: RawLine[]): void {
    if (this.bytes > 0) out.push(this.flush(false, this.pos));
  }

  private take(chunk: Buffer, start: number, end: number): void {
    this.bytes += end - start;
    if (this.mode !== 'hold') {
      this.keepHead(chunk, start, end);
      return;
    }
    if (!this.sawContent) {
      let i = start;
      while (i < end && isSpace(chunk[i]!)) i++;
      if (i < end) {
        this.sawContent = true;
        if (chunk[i] !== 0x7b) {
          this.drop('foreign');
          this.keepHead(chunk, start, end);
          return;
        }
      }
    }
    if (this.held + (end - start) > this.cap) {
      this.drop('long');
      this.keepHead(chunk, start, end);
      return;
    }
    // a view, not a copy: the read stream hands out a fresh buffer per chunk
    this.parts.push(chunk.subarray(start, end));
    this.held += end - start;
  }

  /** The first HEAD_BYTES of a line that is not kept whole (copied: the chunk is let go). */
  private keepHead(chunk: Buffer, start: number, end: number): void {
    if (this.headLen >= HEAD_BYTES) return;
    const h = chunk.subarray(start, Math.min(end, start + HEAD_BYTES - this.headLen));
    this.head.push(Buffer.from(h));
    this.headLen += h.length;
  }

  private drop(mode: 'long' | 'foreign'): void {
    this.mode = mode;
    // the line's start, from the views held so far (a line held whole needs no copy of its head)
    for (const p of this.parts) {
      if (this.headLen >= HEAD_BYTES) break;
      const h = p.subarray(0, HEAD_BYTES - this.headLen);
      this.head.push(Buffer.from(h));
      this.headLen += h.length;
    }
    this.parts = [];
    this.held = 0;
  }

  private flush(complete: boolean, next: number): RawLine {
    const line = this.lineNo++;
    const start = this.lineStart;
    this.lineStart = next;
    let out: RawLine;
    if (this.mode === 'hold') {
      const data = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.held);
      out = { line, start, next, data, complete };
    } else {
      out = { line, start, next, head: Buffer.concat(this.head, this.headLen), bytes: this.bytes, complete, reason: this.mode };
    }
    this.parts = [];
    this.held = 0;
    this.bytes = 0;
    this.head = [];
    this.headLen = 0;
    this.mode = 'hold';
    this.sawContent = false;
    return out;
  }
}
