/**
 * A streaming, byte-level JSON shortener for lines longer than the analysis limit.
 *
 * It reads the line in chunks split anywhere (inside strings, escapes, UTF-8 sequences, numbers) and
 * writes a valid JSON text of the same shape into a buffer of at most max(limit, 256) bytes:
 * - a string longer than the keep size keeps its head, cut at a safe boundary, followed by
 *   `…[truncated: N bytes]` (N = the raw bytes between its quotes). The rest of the string is skipped
 *   with `indexOf('"')`, so a 64 MB base64 blob costs a native scan, not a JS loop per byte;
 * - when the output would grow past the budget, values are elided at value boundaries: an array keeps a
 *   prefix of its elements and ends with `"…[elided: N bytes]"`; an object keeps the members that fit
 *   (its members are unordered, so a small `id` after a huge `result` is still kept) and ends with the
 *   member `"…":"[elided: N bytes]"`. N is the sum of the raw input bytes of the elided elements (each from
 *   the first byte of its key or value to its last byte; separators and whitespace not counted).
 * - deeper values get a slightly smaller budget than shallower ones, so the small top-level members of a
 *   message (`jsonrpc`, `id`, `method`, `isError`) fit whatever their order.
 * The structural check is cheap (brackets, separators, literals, the number grammar, control bytes in the
 * copied part of strings): input that is not JSON, or that ends before the value is complete, gives null.
 * Skipped string bytes (the tail of a long string, strings inside elided values) are not validated.
 */
import type { Shortener, ShortenerFactory } from './line-splitter.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** The output budget never goes below this, so a container and its elision marker always fit. */
const MIN_LIMIT = 256;
/** Bytes kept free per open output container for its closer and elision marker (≤ 42 bytes used). */
const FRAME_RESERVE = 48;
/** Deeper input nesting is treated as not JSON (bounds the bracket stack). */
const MAX_DEPTH = 65536;
/** Deeper containers are elided in the output (keeps the parsed copy shallow). */
const MAX_OUT_DEPTH = 128;
/** Numbers longer than this are elided (at top level: not representable, null). */
const TOKEN_CAP = 256;

// Parser states.
const S_VALUE = 0; // a value must follow (top-level start, after ':' or after ',' in an array)
const S_VALUE_OR_CLOSE = 1; // after '['
const S_KEY_OR_CLOSE = 2; // after '{'
const S_KEY = 3; // after ',' in an object
const S_COLON = 4; // after a key
const S_AFTER = 5; // after a value inside a container
const S_DONE = 6; // the top-level value is complete; only whitespace may follow
const S_STRING = 7; // inside a string, copying its head byte by byte
const S_SKIP = 8; // inside a string, skipping to its closing quote
const S_TOKEN = 9; // inside a number or a literal
const S_BAD = 10; // not JSON

const ELLIPSIS = Buffer.from('…');
const LITERALS: Record<number, Buffer> = { 0x74: Buffer.from('true'), 0x66: Buffer.from('false'), 0x6e: Buffer.from('null') };

/** A container that is open in the output. */
interface Frame {
  isObject: boolean;
  /** Elements or members written so far (for the comma). */
  count: number;
  /** Raw input bytes of the elements or members left out. */
  elided: number;
  /** An array stops copying after its first elided element, so the kept elements are a true prefix. */
  full: boolean;
}

// Number grammar (RFC 8259): states of a small DFA; NUM_END_OK marks where a number may end.
const N_MINUS = 0; // after '-': a digit must follow
const N_ZERO = 1; // a leading 0: '.', 'e' or the end
const N_INT = 2; // integer digits
const N_DOT = 3; // after '.': a digit must follow
const N_FRAC = 4; // fraction digits
const N_E = 5; // after 'e': sign or digit
const N_E_SIGN = 6; // after the exponent sign: a digit must follow
const N_EXP = 7; // exponent digits
const N_BAD = 8;
const NUM_END_OK = [false, true, true, false, true, false, false, true, false];

/** Next number state for byte `b`, or -1 when `b` cannot be part of a number (the number ends before it). */
function numberStep(state: number, b: number): number {
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

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  const l = b | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return 0;
}

class JsonShortener implements Shortener {
  private readonly budget: number;
  private readonly margin: number;
  private readonly keep: number;

  private state = S_VALUE;
  /** Input bytes before the current chunk. */
  private base = 0;

  // Output.
  private out: Buffer;
  private outLen = 0;
  /** Sum of FRAME_RESERVE over the open output frames. */
  private reserved = 0;
  private readonly frames: Frame[] = [];

  // Input nesting: 1 = object, 0 = array, for every open container (output or not).
  private types = new Uint8Array(64);
  private depth = 0;
  /** Where the current member (key or array element) of the innermost output frame started. */
  private memberStart = 0;

  // Strings.
  private strStart = 0;
  private strIsKey = false;
  private strKeep = false;
  private readonly strBuf: Buffer;
  private strLen = 0;
  private safeCut = 0;
  private esc = 0; // 0: none, 1: after a backslash, 2: in the hex digits of \u
  private hexLeft = 0;
  private hexValue = 0;
  private highSurrogate = false;
  private utf8Left = 0;
  /** Skip mode: the next byte is escaped (the previous chunk ended inside a run of backslashes). */
  private escaped = false;
  /** The current object member's key, rendered with its quotes. */
  private readonly keyBuf: Buffer;
  private keyLen = 0;

  // Numbers and literals.
  private readonly tokBuf = Buffer.alloc(TOKEN_CAP);
  private tokLen = 0;
  private tokLiteral: Buffer | null = null;
  private numState = N_INT;

  constructor(limit: number) {
    this.budget = Math.max(MIN_LIMIT, Math.floor(limit) || 0);
    this.margin = Math.floor(this.budget / 16);
    this.keep = Math.max(64, Math.min(1024, Math.floor(this.budget / 64)));
    this.out = Buffer.allocUnsafe(Math.min(this.budget, 64 * 1024));
    this.strBuf = Buffer.allocUnsafe(this.keep);
    this.keyBuf = Buffer.allocUnsafe(this.keep + 64);
  }

  write(chunk: Buffer): void {
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case S_BAD:
          i = n;
          break;
        case S_SKIP:
          i = this.skipString(chunk, i);
          break;
        case S_STRING:
          i = this.copyString(chunk, i);
          break;
        case S_TOKEN:
          i = this.token(chunk, i);
          break;
        default:
          i = this.structure(chunk, i);
      }
    }
    this.base += n;
  }

  finish(): string | null {
    if (this.state === S_TOKEN) this.endToken(this.base);
    if (this.state !== S_DONE) return null;
    this.state = S_BAD; // one result per shortener
    return this.out.toString('utf8', 0, this.outLen);
  }

  // ---- structure ----

  private structure(buf: Buffer, i: number): number {
    const n = buf.length;
    while (i < n) {
      const b = buf[i]!;
      if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) {
        i++;
        continue;
      }
      const pos = this.base + i;
      switch (this.state) {
        case S_VALUE:
        case S_VALUE_OR_CLOSE:
          if (b === CLOSE_ARRAY && this.state === S_VALUE_OR_CLOSE) this.close(false, pos);
          else this.startValue(b, pos);
          break;
        case S_KEY:
        case S_KEY_OR_CLOSE:
          if (b === CLOSE_OBJECT && this.state === S_KEY_OR_CLOSE) this.close(true, pos);
          else if (b === QUOTE) this.startString(true, pos);
          else return this.bad(n);
          break;
        case S_COLON:
          if (b !== COLON) return this.bad(n);
          this.state = S_VALUE;
          break;
        case S_AFTER:
          if (b === COMMA) this.state = this.types[this.depth - 1] === 1 ? S_KEY : S_VALUE;
          else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) this.close(b === CLOSE_OBJECT, pos);
          else return this.bad(n);
          break;
        default:
          return this.bad(n);
      }
      i++;
      if (this.state >= S_STRING) return i;
    }
    return i;
  }

  private bad(n: number): number {
    this.state = S_BAD;
    return n;
  }

  /** True when values at the current depth are written to an open output frame. */
  private get inOutput(): boolean {
    return this.frames.length === this.depth;
  }

  private startValue(b: number, pos: number): void {
    const d = this.depth;
    if (d > 0 && this.inOutput && !this.frames[d - 1]!.isObject) this.memberStart = pos;
    if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      const isObject = b === OPEN_OBJECT;
      if (d >= MAX_DEPTH) {
        this.state = S_BAD;
        return;
      }
      const admitted = d === 0 || (this.frames.length < MAX_OUT_DEPTH && this.admit(1, FRAME_RESERVE));
      if (admitted) {
        this.put(b);
        this.frames.push({ isObject, count: 0, elided: 0, full: false });
        this.reserved += FRAME_RESERVE;
      }
      if (d === this.types.length) {
        const t = new Uint8Array(Math.min(MAX_DEPTH, d * 2));
        t.set(this.types);
        this.types = t;
      }
      this.types[d] = isObject ? 1 : 0;
      this.depth = d + 1;
      this.state = isObject ? S_KEY_OR_CLOSE : S_VALUE_OR_CLOSE;
      return;
    }
    if (b === QUOTE) {
      this.startString(false, pos);
      return;
    }
    if (b === 0x2d || (b >= 0x30 && b <= 0x39)) {
      this.startToken(b, null);
      return;
    }
    const literal = LITERALS[b];
    if (literal) {
      this.startToken(b, literal);
      return;
    }
    this.state = S_BAD;
  }

  private close(isObject: boolean, pos: number): void {
    const d = this.depth;
    if (d === 0 || this.types[d - 1] !== (isObject ? 1 : 0)) {
      this.state = S_BAD;
      return;
    }
    const wasOutput = this.frames.length === d;
    this.depth = d - 1;
    if (wasOutput) {
      const f = this.frames.pop()!;
      this.reserved -= FRAME_RESERVE;
      if (f.elided > 0) this.putElisionMarker(f);
      this.put(isObject ? CLOSE_OBJECT : CLOSE_ARRAY);
    } else {
      this.noteElided(pos + 1);
    }
    this.valueDone();
  }

  private valueDone(): void {
    this.state = this.depth === 0 ? S_DONE : S_AFTER;
  }

  /**
   * Decides whether a value of `len` output bytes (plus `extra` bytes kept in reserve) is written to the
   * innermost output frame; when it is, writes the comma and the pending key.
   */
  private admit(len: number, extra: number): boolean {
    const d = this.depth;
    if (this.frames.length !== d) return false;
    const f = this.frames[d - 1]!;
    if (f.full) return false;
    const prefix = (f.count > 0 ? 1 : 0) + (f.isObject ? this.keyLen + 1 : 0);
    const budget = this.budget - this.margin * (d <= 1 ? 0 : d === 2 ? 1 : 2);
    if (this.outLen + prefix + len + this.reserved + extra > budget) return false;
    if (f.count > 0) this.put(COMMA);
    if (f.isObject) {
      this.putBytes(this.keyBuf, 0, this.keyLen);
      this.put(COLON);
    }
    f.count++;
    return true;
  }

  /** A value ending at `end` was left out of the innermost output frame. */
  private noteElided(end: number): void {
    const d = this.depth;
    if (d === 0 || this.frames.length !== d) return;
    const f = this.frames[d - 1]!;
    f.elided += end - this.memberStart;
    if (!f.isObject) f.full = true;
  }

  // ---- strings ----

  private startString(isKey: boolean, pos: number): void {
    const d = this.depth;
    this.strStart = pos;
    this.strIsKey = isKey;
    if (isKey && this.inOutput) this.memberStart = pos;
    this.strKeep = d === 0 || (this.inOutput && (isKey || !this.frames[d - 1]!.full));
    this.escaped = false;
    if (this.strKeep) {
      this.strLen = 0;
      this.safeCut = 0;
      this.esc = 0;
      this.highSurrogate = false;
      this.utf8Left = 0;
      this.state = S_STRING;
    } else {
      this.state = S_SKIP;
    }
  }

  /** Copies the head of a kept string, tracking where it may be cut; switches to skipping past the keep size. */
  private copyString(buf: Buffer, i: number): number {
    const n = buf.length;
    const keep = this.keep;
    const sb = this.strBuf;
    while (i < n) {
      const b = buf[i]!;
      if (this.esc === 0) {
        if (b === QUOTE) {
          this.endString(this.base + i);
          return i + 1;
        }
        if (this.strLen === keep) {
          this.escaped = false;
          this.state = S_SKIP;
          return i;
        }
        if (b === BACKSLASH) {
          this.esc = 1;
        } else {
          if (b < 0x20) return this.bad(n);
          this.highSurrogate = false;
          if (b >= 0xc0) this.utf8Left = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : 1;
          else if (b >= 0x80) {
            if (this.utf8Left > 0) this.utf8Left--;
          } else this.utf8Left = 0;
        }
      } else {
        if (this.strLen === keep) {
          this.escaped = this.esc === 1;
          this.state = S_SKIP;
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
      sb[this.strLen++] = b;
      if (this.esc === 0 && this.utf8Left === 0 && !this.highSurrogate) this.safeCut = this.strLen;
      i++;
    }
    return i;
  }

  /** Finds the closing quote natively: a quote ends the string when an even run of backslashes precedes it. */
  private skipString(buf: Buffer, start: number): number {
    const n = buf.length;
    let from = start;
    for (;;) {
      const q = buf.indexOf(QUOTE, from);
      if (q === -1) {
        let k = n - 1;
        let run = 0;
        while (k >= start && buf[k] === BACKSLASH) {
          run++;
          k--;
        }
        if (k < start && this.escaped) run++;
        this.escaped = (run & 1) === 1;
        return n;
      }
      let k = q - 1;
      let run = 0;
      while (k >= start && buf[k] === BACKSLASH) {
        run++;
        k--;
      }
      if (k < start && this.escaped) run++;
      if ((run & 1) === 0) {
        this.escaped = false;
        this.endString(this.base + q);
        return q + 1;
      }
      from = q + 1;
    }
  }

  /** `end` is the position of the closing quote. */
  private endString(end: number): void {
    const isKey = this.strIsKey;
    this.state = isKey ? S_COLON : this.depth === 0 ? S_DONE : S_AFTER;
    if (!this.strKeep) {
      if (!isKey) this.noteElided(end + 1);
      return;
    }
    const raw = end - this.strStart - 1;
    const cut = raw > this.strLen;
    const kept = cut ? this.safeCut : this.strLen;
    const marker = cut ? `[truncated: ${raw} bytes]` : '';
    const len = 2 + kept + (cut ? ELLIPSIS.length + marker.length : 0);
    if (isKey) {
      const kb = this.keyBuf;
      kb[0] = QUOTE;
      this.strBuf.copy(kb, 1, 0, kept);
      let p = 1 + kept;
      if (cut) {
        p += ELLIPSIS.copy(kb, p);
        p += kb.write(marker, p, 'latin1');
      }
      kb[p++] = QUOTE;
      this.keyLen = p;
      return;
    }
    if (this.depth === 0 || this.admit(len, 0)) {
      this.put(QUOTE);
      this.putBytes(this.strBuf, 0, kept);
      if (cut) {
        this.putBytes(ELLIPSIS, 0, ELLIPSIS.length);
        this.putAscii(marker);
      }
      this.put(QUOTE);
    } else {
      this.noteElided(end + 1);
    }
  }

  // ---- numbers and literals ----

  private startToken(b: number, literal: Buffer | null): void {
    this.tokLiteral = literal;
    this.tokBuf[0] = b;
    this.tokLen = 1;
    this.numState = b === 0x2d ? N_MINUS : b === 0x30 ? N_ZERO : N_INT;
    this.state = S_TOKEN;
  }

  private token(buf: Buffer, i: number): number {
    const n = buf.length;
    const lit = this.tokLiteral;
    if (lit) {
      while (i < n) {
        const b = buf[i]!;
        if (b < 0x61 || b > 0x7a) break;
        if (this.tokLen >= lit.length || lit[this.tokLen] !== b) return this.bad(n);
        this.tokBuf[this.tokLen++] = b;
        i++;
      }
    } else {
      const tb = this.tokBuf;
      let len = this.tokLen;
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
        if (next === N_BAD) return this.bad(n);
        state = next;
        if (len < TOKEN_CAP) tb[len] = b;
        len++;
        i++;
      }
      this.tokLen = len;
      this.numState = state;
    }
    if (i < n) this.endToken(this.base + i);
    return i;
  }

  /** `end` is the position just after the token. */
  private endToken(end: number): void {
    const len = this.tokLen;
    const lit = this.tokLiteral;
    if (lit ? len !== lit.length : !NUM_END_OK[this.numState]) {
      this.state = S_BAD;
      return;
    }
    this.valueDone();
    if (len > TOKEN_CAP) {
      if (this.depth === 0) this.state = S_BAD;
      else this.noteElided(end);
      return;
    }
    if (this.depth === 0 || this.admit(len, 0)) this.putBytes(this.tokBuf, 0, len);
    else this.noteElided(end);
  }

  // ---- output ----

  private ensure(n: number): void {
    const need = this.outLen + n;
    if (need <= this.out.length) return;
    let size = this.out.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.out.copy(next, 0, 0, this.outLen);
    this.out = next;
  }

  private put(b: number): void {
    this.ensure(1);
    this.out[this.outLen++] = b;
  }

  private putBytes(src: Buffer, start: number, end: number): void {
    this.ensure(end - start);
    this.outLen += src.copy(this.out, this.outLen, start, end);
  }

  private putAscii(s: string): void {
    this.ensure(s.length);
    this.outLen += this.out.write(s, this.outLen, 'latin1');
  }

  private putElisionMarker(f: Frame): void {
    if (f.count > 0) this.put(COMMA);
    this.put(QUOTE);
    this.putBytes(ELLIPSIS, 0, ELLIPSIS.length);
    if (f.isObject) {
      this.putAscii('":"');
    }
    this.putAscii(`[elided: ${f.elided} bytes]"`);
  }
}

/** The shortener the line splitter uses for over-long lines: same JSON shape, long strings cut, size bounded by `limit`. */
export const jsonShortener: ShortenerFactory = (limit) => new JsonShortener(limit);
