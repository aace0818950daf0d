/**
 * The byte-level JSON grammar the streaming shortener checks as it copies (json-shortener.ts): the
 * structural bytes, the literals, and RFC 8259's number grammar as a small DFA. Pure.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;

/** `true`, `false` and `null` by their first byte: a literal must go on with exactly these bytes. */
export const LITERALS: Record<number, Buffer> = { 0x74: Buffer.from('true'), 0x66: Buffer.from('false'), 0x6e: Buffer.from('null') };

// Number grammar (RFC 8259): states of a small DFA; NUM_END_OK marks where a number may end.
export const N_MINUS = 0; // after '-': a digit must follow
export const N_ZERO = 1; // a leading 0: '.', 'e' or the end
export const N_INT = 2; // integer digits
const N_DOT = 3; // after '.': a digit must follow
export const N_FRAC = 4; // fraction digits
const N_E = 5; // after 'e': sign or digit
const N_E_SIGN = 6; // after the exponent sign: a digit must follow
export const N_EXP = 7; // exponent digits
export const N_BAD = 8;
/** Whether a number may end in each state (indexed by state). */
export const NUM_END_OK = [false, true, true, false, true, false, false, true, false];

/** Next number state for byte `b`, or -1 when `b` cannot be part of a number (the number ends before it). */
export function numberStep(state: number, b: number): number {
  const digit = b >= 0x30 && b <= 0x39;
  if (!digit && b !== 0x2e && b !== 0x65 && b !== 0x45 && b !== 0x2b && b !== 0x2d) return -1;
  switch (state) {
    case N_MINUS:
      return b === 0x30 ? N_ZERO : digit ? N_INT : N_BAD;
    case N_ZERO:
    case N_INT:
      if (digit) return state === N_INT ? N_INT : N_BAD;
      return b === 0x2e ? N_DOT : b === 0x65 || b === 0x45 ? N_E : N_BAD;
    case N_DOT:
    case N_FRAC:
      if (digit) return N_FRAC;
      return state === N_FRAC && (b === 0x65 || b === 0x45) ? N_E : N_BAD;
    case N_E:
      return digit ? N_EXP : b === 0x2b || b === 0x2d ? N_E_SIGN : N_BAD;
    case N_E_SIGN:
    case N_EXP:
      return digit ? N_EXP : N_BAD;
    default:
      return N_BAD;
  }
}

/** The value of one hex digit of a `\u` escape (0 for anything else: the escape is only tracked, not checked). */
export function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  const l = b | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return 0;
}
