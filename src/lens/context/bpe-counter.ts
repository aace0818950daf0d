/**
 * Counts byte-pair-encoding tokens from a tiktoken rank file, in typed arrays. Pure: text in, numbers out.
 *
 * gpt-tokenizer's own encoder keeps each of o200k's 200,000 tokens as a JS string in a Map and an
 * array, and its rank module is a 2.4 MB array literal: loading it raised a reader's peak RSS by ~65 MB
 * (parse and garbage included), half the 128 MB every reader has. Counting needs no decoding, so the
 * ranks live here as one byte buffer, offsets and an open-addressing hash table (~5 MB, outside the
 * garbage-collected heap), built from the library's published rank file; the split regex is the
 * library's too. The merge is the library's (tiktoken's): split, then repeatedly join the adjacent pair
 * of lowest rank, leftmost first. test/unit/bpe-counter.test.ts holds the counts equal to gpt-tokenizer's.
 */

/** The ranks of a tiktoken file (`<base64 token> <rank>` per line), indexed for lookup by bytes. */
export interface RankTable {
  readonly bytes: Uint8Array;
  /** Token k's bytes are bytes[start[k]..start[k+1]). */
  readonly start: Uint32Array;
  readonly rank: Int32Array;
  /** Slot → token index, or -1 when empty; linear probing. */
  readonly slots: Int32Array;
}

const B64 = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) B64[c.charCodeAt(0)] = i;

function fnv(b: Uint8Array, s: number, e: number): number {
  let h = 0x811c9dc5;
  for (let i = s; i < e; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

/** Decodes base64 text[s..e) into out at pos; the number of bytes written. */
function decodeB64(text: string, s: number, e: number, out: Uint8Array, pos: number): number {
  let acc = 0;
  let bits = 0;
  let n = 0;
  for (let i = s; i < e; i++) {
    const v = B64[text.charCodeAt(i)] ?? -1;
    if (v < 0) continue; // '=' padding
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[pos + n++] = (acc >> bits) & 0xff;
    }
  }
  return n;
}

/** Builds the table from a tiktoken rank file's text. Throws on a line without a rank. */
export function buildRankTable(text: string): RankTable {
  let count = 0;
  let total = 0;
  for (let i = 0; i < text.length; ) {
    const nl = text.indexOf('\n', i);
    const end = nl === -1 ? text.length : nl;
    const sp = text.indexOf(' ', i);
    if (end > i) {
      if (sp === -1 || sp > end) throw new Error(`rank file line ${count + 1} has no rank`);
      let pad = 0;
      while (pad < 2 && text.charCodeAt(sp - 1 - pad) === 0x3d) pad++;
      total += ((sp - i) / 4) * 3 - pad;
      count++;
    }
    i = end + 1;
  }
  const bytes = new Uint8Array(total);
  const start = new Uint32Array(count + 1);
  const rank = new Int32Array(count);
  let size = 1;
  while (size < count * 2) size <<= 1;
  const slots = new Int32Array(size).fill(-1);
  let pos = 0;
  let k = 0;
  for (let i = 0; i < text.length; ) {
    const nl = text.indexOf('\n', i);
    const end = nl === -1 ? text.length : nl;
    if (end > i) {
      const sp = text.indexOf(' ', i);
      start[k] = pos;
      const n = decodeB64(text, i, sp, bytes, pos);
      rank[k] = Number(text.slice(sp + 1, end));
      let h = fnv(bytes, pos, pos + n) & (size - 1);
      while (slots[h] !== -1) h = (h + 1) & (size - 1);
      slots[h] = k;
      pos += n;
      k++;
    }
    i = end + 1;
  }
  start[count] = pos;
  return { bytes, start, rank, slots };
}

/** The rank of b[s..e), or -1 when it is no token. */
export function rankOf(t: RankTable, b: Uint8Array, s: number, e: number): number {
  return rankByHash(t, b, s, e, fnv(b, s, e));
}

/** rankOf with the bytes' FNV-1a hash already computed. */
function rankByHash(t: RankTable, b: Uint8Array, s: number, e: number, hash: number): number {
  const mask = t.slots.length - 1;
  const len = e - s;
  for (let h = hash & mask; ; h = (h + 1) & mask) {
    const k = t.slots[h]!;
    if (k === -1) return -1;
    const ks = t.start[k]!;
    if (t.start[k + 1]! - ks !== len) continue;
    let j = 0;
    while (j < len && t.bytes[ks + j] === b[s + j]) j++;
    if (j === len) return t.rank[k]!;
  }
}

/** Pieces longer than this (UTF-16 units) are looked up in the cache before the table. */
const LONG_PIECE = 32;

/** Counts tokens of text: split by `split` (a global regex), then byte-pair merge each piece. */
export class BpeCounter {
  private scratch = new Uint8Array(1024);
  private starts = new Int32Array(1025);
  private ranks = new Float64Array(1025);
  private readonly encoder = new TextEncoder();
  /** Pieces that needed merging → their token count; the oldest is dropped past `cacheSize`. */
  private readonly cache = new Map<string, number>();

  constructor(
    private readonly table: RankTable,
    private readonly split: RegExp,
    private readonly cacheSize = 10_000,
  ) {}

  count(text: string): number {
    let n = 0;
    for (const m of text.matchAll(this.split)) n += this.piece(m[0]);
    return n;
  }

  private piece(p: string): number {
    // a long piece is rarely one token: the cache first spares encoding and hashing its bytes
    const long = p.length > LONG_PIECE;
    if (long) {
      const hit = this.cache.get(p);
      if (hit !== undefined) return hit;
    }
    if (this.scratch.length < p.length * 3) this.scratch = new Uint8Array(p.length * 3);
    const b = this.scratch;
    // ASCII (most pieces): bytes and hash in one loop, without a call into TextEncoder
    let n = 0;
    let h = 0x811c9dc5;
    for (; n < p.length; n++) {
      const c = p.charCodeAt(n);
      if (c > 0x7f) break;
      b[n] = c;
      h = Math.imul(h ^ c, 0x01000193);
    }
    if (n < p.length) {
      n = this.encoder.encodeInto(p, b).written;
      h = fnv(b, 0, n);
    }
    if (rankByHash(this.table, b, 0, n, h >>> 0) !== -1) return 1;
    const hit = long ? undefined : this.cache.get(p);
    if (hit !== undefined) return hit;
    const tokens = this.merge(n);
    if (this.cache.size >= this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(p, tokens);
    return tokens;
  }

  /** tiktoken's merge over scratch[0..n): the number of parts left. */
  private merge(n: number): number {
    if (this.starts.length < n + 1) {
      this.starts = new Int32Array(n + 1);
      this.ranks = new Float64Array(n + 1);
    }
    const { starts, ranks } = this;
    let len = n + 1;
    const pairRank = (i: number): number => {
      if (i + 2 >= len) return Infinity;
      const r = rankOf(this.table, this.scratch, starts[i]!, starts[i + 2]!);
      return r === -1 ? Infinity : r;
    };
    for (let i = 0; i <= n; i++) starts[i] = i;
    for (let i = 0; i <= n; i++) ranks[i] = pairRank(i);
    for (;;) {
      let lowest = Infinity;
      let at = -1;
      for (let i = 0; i < len - 1; i++) {
        if (ranks[i]! < lowest) {
          lowest = ranks[i]!;
          at = i;
        }
      }
      if (at === -1) break;
      starts.copyWithin(at + 1, at + 2, len);
      ranks.copyWithin(at, at + 1, len);
      len--;
      ranks[at] = pairRank(at);
      if (at > 0) ranks[at - 1] = pairRank(at - 1);
    }
    return len - 1;
  }
}
