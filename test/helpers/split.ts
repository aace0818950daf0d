/** Splits `buf` at the given positions (deduplicated, taken modulo length + 1, sorted): random chunking. */
export function split(buf: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of [...points, buf.length]) {
    if (p > prev) out.push(buf.subarray(prev, p));
    prev = p;
  }
  return out;
}
