/**
 * One JSON string as the streaming shortener meets it, in chunks split anywhere: the head it keeps
 * (copied byte by byte, with the last place it may be cut without splitting a UTF-8 sequence, an escape
 * or an escaped surrogate pair) and the rest, skipped to the closing quote with a native indexOf. Pure.
 */
import { BACKSLASH, hexValue, QUOTE } from './json-grammar.js';

/** Why copy() stopped: the chunk ran out, the closing quote came, the head is full, or a control byte (not JSON). */
export const COPY_MORE = 0;
export const COPY_CLOSED = 1;
export const COPY_FULL = 2;
export const COPY_BAD = 3;

/** The head of the string being read, at most `keep` raw bytes (escapes as written). */
export class StringHead {
  /** The head's raw bytes: buf[0, len). */
  readonly buf: Buffer;
  len = 0;
  /** The head may be cut to buf[0, safeCut) and stay valid. */
  safeCut = 0;
  /** Why the last copy() stopped (COPY_*). */
  stop = COPY_MORE;
  private esc = 0; // 0: none, 1: after a backslash, 2: in the hex digits of \u
  private hexLeft = 0;
  private hexValue = 0;
  private highSurrogate = false;
  private utf8Left = 0;
  /** Skip mode: the next byte is escaped (the previous chunk ended inside a run of backslashes). */
  private escaped = false;

  constructor(private readonly keep: number) {
    this.buf = Buffer.allocUnsafe(keep);
  }

  /** A new string starts (after its opening quote). */
  begin(): void {
    this.len = 0;
    this.safeCut = 0;
    this.esc = 0;
    this.highSurrogate = false;
    this.utf8Left = 0;
    this.escaped = false;
  }

  /**
   * Copies the head from buf[i…]; returns where it stopped (`stop` says why): at the closing quote (its
   * index), at the byte the full head leaves to skip(), or at the chunk's end.
   */
  copy(buf: Buffer, i: number): number {
    const n = buf.length;
    const keep = this.keep;
    const sb = this.buf;
    while (i < n) {
      const b = buf[i]!;
      if (this.esc === 0) {
        if (b === QUOTE) {
          this.stop = COPY_CLOSED;
          return i;
        }
        if (this.len === keep) {
          this.escaped = false;
          this.stop = COPY_FULL;
          return i;
        }
        if (b === BACKSLASH) {
          this.esc = 1;
        } else {
          if (b < 0x20) {
            this.stop = COPY_BAD;
            return n;
          }
          this.highSurrogate = false;
          if (b >= 0xc0) this.utf8Left = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : 1;
          else if (b >= 0x80) {
            if (this.utf8Left > 0) this.utf8Left--;
          } else this.utf8Left = 0;
        }
      } else {
        if (this.len === keep) {
          this.escaped = this.esc === 1;
          this.stop = COPY_FULL;
          return i;
        }
        if (this.esc === 1) {
          if (b === 0x75 /* u */) {
            this.esc = 2;
            this.hexLeft = 4;
            this.hexValue = 0;
          } else {
            this.esc = 0;
            this.highSurrogate = false;
          }
        } else {
          this.hexValue = this.hexValue * 16 + hexValue(b);
          if (--this.hexLeft === 0) {
            this.esc = 0;
            // never cut between the two halves of an escaped surrogate pair
            this.highSurrogate = this.hexValue >= 0xd800 && this.hexValue <= 0xdbff;
          }
        }
      }
      sb[this.len++] = b;
      if (this.esc === 0 && this.utf8Left === 0 && !this.highSurrogate) this.safeCut = this.len;
      i++;
    }
    this.stop = COPY_MORE;
    return i;
  }

  /**
   * Finds the closing quote from buf[start…] natively: a quote ends the string when an even run of
   * backslashes precedes it. Returns its index, or -1 when the chunk ends first.
   */
  skip(buf: Buffer, start: number): number {
    let from = start;
    for (;;) {
      const q = buf.indexOf(QUOTE, from);
      if (q === -1) {
        this.escaped = this.escapedAt(buf, buf.length, start);
        return -1;
      }
      if (!this.escapedAt(buf, q, start)) {
        this.escaped = false;
        return q;
      }
      from = q + 1;
    }
  }

  /** Whether buf[at] is escaped: an odd run of backslashes before it, from `start` on and carried from the chunk before. */
  private escapedAt(buf: Buffer, at: number, start: number): boolean {
    let k = at - 1;
    let run = 0;
    while (k >= start && buf[k] === BACKSLASH) {
      run++;
      k--;
    }
    if (k < start && this.escaped) run++;
    return (run & 1) === 1;
  }
}
