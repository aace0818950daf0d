/**
 * Numbers written as JSON.stringify writes them, straight into a byte buffer: whole numbers below 2^31
 * and record times and latencies (whole thousandths below 2^42). Pure. Used by the head writer on the
 * hot path, so int32 arithmetic and no branch per digit count.
 */

/** Below 2^42 a number with at most 3 decimals (times and latencies: whole microseconds) is written exactly. */
const MILLIS_MAX = 4398046511104;

/**
 * `v` × 1000 when `v` is a whole number of thousandths below 2^42 in size (then putMillis and the
 * WebAssembly head writer write it exactly as JSON.stringify does); NaN for any other number.
 */
export function thousandths(v: number): number {
  if (!(v > -MILLIS_MAX && v < MILLIS_MAX)) return NaN;
  const m = Math.round(v * 1000);
  return m / 1000 === v ? m : NaN;
}

/**
 * Writes `v` as JSON.stringify would when it is a whole number of thousandths below 2^42 (record times
 * and latencies are rounded to the microsecond); returns -1 for any other number. Below 2^42 doubles are
 * spaced less than 0.0005 apart, so the shortest decimal that reads back as `v` is exactly its 3-decimal
 * form without trailing zeros.
 */
export function putMillis(out: Uint8Array, at: number, v: number): number {
  const micro = thousandths(v);
  if (micro !== micro) return -1;
  let m = micro;
  if (m < 0) {
    out[at++] = 0x2d;
    m = -m;
  }
  const whole = Math.floor(m / 1000);
  const frac = (m - whole * 1000) | 0;
  if (whole < 2147483648) at = putUint(out, at, whole);
  else {
    // a record time (~1.8e12 ms): the millions (below 2^23 here), then six digits, both in int32
    const millions = Math.floor(whole / 1e6);
    at = putSixDigits(out, putUint(out, at, millions), (whole - millions * 1e6) | 0);
  }
  if (frac === 0) return at;
  // up to three decimals, without trailing zeros (int32 arithmetic)
  out[at++] = 0x2e;
  const d0 = (frac / 100) | 0;
  out[at++] = 0x30 + d0;
  let r = frac - d0 * 100;
  if (r === 0) return at;
  const d1 = (r / 10) | 0;
  out[at++] = 0x30 + d1;
  r -= d1 * 10;
  if (r === 0) return at;
  out[at++] = 0x30 + r;
  return at;
}

/** "00" … "99": two digits per step. */
const PAIRS_OF_DIGITS = Buffer.from(Array.from({ length: 100 }, (_, k) => String(k).padStart(2, '0')).join(''), 'latin1');

/** 10^k for k = 0 … 9. */
const POWERS_OF_TEN = new Int32Array([1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000]);

/**
 * Decimal digits of an int32 n ≥ 1, with no branch per digit count: a chain of `n < 10^k` tests compiles
 * only the tests that had run, so a seq or id reaching 100,000 mid-session deoptimized every head writer.
 */
function decimalDigits(n: number): number {
  // floor(log10(n)) is t or t - 1, with t from the bit length (1233 / 4096 ≈ log10 2)
  const t = ((32 - Math.clz32(n)) * 1233) >> 12;
  return n < POWERS_OF_TEN[t]! ? t : t + 1;
}

/** Writes 0 ≤ n < 1,000,000 as exactly six digits (leading zeros kept); returns the new position. */
function putSixDigits(out: Uint8Array, at: number, n: number): number {
  const a = ((n / 10000) | 0) << 1;
  const rest = n - (a >> 1) * 10000;
  const b = ((rest / 100) | 0) << 1;
  const c = (rest - (b >> 1) * 100) << 1;
  out[at] = PAIRS_OF_DIGITS[a]!;
  out[at + 1] = PAIRS_OF_DIGITS[a + 1]!;
  out[at + 2] = PAIRS_OF_DIGITS[b]!;
  out[at + 3] = PAIRS_OF_DIGITS[b + 1]!;
  out[at + 4] = PAIRS_OF_DIGITS[c]!;
  out[at + 5] = PAIRS_OF_DIGITS[c + 1]!;
  return at + 6;
}

/** Writes a non-negative integer below 2^31 in decimal; returns the new position. */
export function putUint(out: Uint8Array, at: number, v: number): number {
  // int32 arithmetic throughout: `%` on a value the compiler cannot prove an integer is a call to fmod
  let n = v | 0;
  if (n < 10) {
    out[at] = 0x30 + n;
    return at + 1;
  }
  const digits = decimalDigits(n);
  let i = at + digits;
  while (n >= 100) {
    const q = (n / 100) | 0;
    const r = (n - q * 100) << 1;
    out[--i] = PAIRS_OF_DIGITS[r + 1]!;
    out[--i] = PAIRS_OF_DIGITS[r]!;
    n = q;
  }
  if (n >= 10) {
    const r = n << 1;
    out[--i] = PAIRS_OF_DIGITS[r + 1]!;
    out[--i] = PAIRS_OF_DIGITS[r]!;
  } else out[--i] = 0x30 + n;
  return at + digits;
}
