/**
 * A number or a literal (`true`, `false`, `null`) as the streaming shortener meets it, in chunks split
 * anywhere: checked against the grammar byte by byte (json-grammar.ts) and its first TOKEN_CAP bytes
 * kept. Pure.
 */
import { LITERALS, N_BAD, N_EXP, N_FRAC, N_INT, N_MINUS, N_ZERO, NUM_END_OK, numberStep } from './json-grammar.js';

/** Tokens longer than this are not kept (a number that long is elided; at top level, not representable). */
export const TOKEN_CAP = 256;

/** The token being read: its bytes (while they fit), how long it is, whether it broke the grammar. */
export class TokenReader {
  /** The token's first bytes: buf[0, min(len, TOKEN_CAP)). */
  readonly buf = Buffer.alloc(TOKEN_CAP);
  len = 0;
  /** The bytes so far are no number or literal (not JSON). */
  bad = false;
  private literal: Buffer | undefined;
  private numState = N_INT;

  /** Starts a token at byte `b`; false when no number or literal starts with it. */
  start(b: number): boolean {
    const literal = LITERALS[b];
    if (!literal && b !== 0x2d && (b < 0x30 || b > 0x39)) return false;
    this.literal = literal;
    this.buf[0] = b;
    this.len = 1;
    this.bad = false;
    this.numState = b === 0x2d ? N_MINUS : b === 0x30 ? N_ZERO : N_INT;
    return true;
  }

  /** Reads on from buf[i…]; returns the index of the first byte after the token, or the chunk's end. */
  read(buf: Buffer, i: number): number {
    const n = buf.length;
    const lit = this.literal;
    if (lit) {
      while (i < n) {
        const b = buf[i]!;
        if (b < 0x61 || b > 0x7a) break;
        if (this.len >= lit.length || lit[this.len] !== b) {
          this.bad = true;
          return n;
        }
        this.buf[this.len++] = b;
        i++;
      }
      return i;
    }
    const tb = this.buf;
    let len = this.len;
    let state = this.numState;
    while (i < n) {
      const b = buf[i]!;
      // digits inside the integer, fraction or exponent: the common case, no state change
      if (b >= 0x30 && b <= 0x39 && (state === N_INT || state === N_FRAC || state === N_EXP)) {
        if (len < TOKEN_CAP) tb[len] = b;
        len++;
        i++;
        continue;
      }
      const next = numberStep(state, b);
      if (next < 0) break;
      if (next === N_BAD) {
        this.bad = true;
        return n;
      }
      state = next;
      if (len < TOKEN_CAP) tb[len] = b;
      len++;
      i++;
    }
    this.len = len;
    this.numState = state;
    return i;
  }

  /** Whether the token may end here: a whole literal, or a number in a state where numbers end. */
  complete(): boolean {
    return this.literal ? this.len === this.literal.length : NUM_END_OK[this.numState]!;
  }
}
