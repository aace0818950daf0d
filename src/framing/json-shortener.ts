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
 * This file is the state machine over containers; a string's head is string-head.ts, a number or literal
 * json-token.ts, the grammar json-grammar.ts and the output shortened-output.ts.
 */
import type { Shortener, ShortenerFactory } from './line-splitter.js';
import { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-grammar.js';
import { TOKEN_CAP, TokenReader } from './json-token.js';
import { ShortenedOutput } from './shortened-output.js';
import { COPY_BAD, COPY_CLOSED, COPY_FULL, StringHead } from './string-head.js';

/** The output budget never goes below this, so a container and its elision marker always fit. */
const MIN_LIMIT = 256;
/** Bytes kept free per open output container for its closer and elision marker (≤ 42 bytes used). */
const FRAME_RESERVE = 48;
/** Deeper input nesting is treated as not JSON (bounds the bracket stack). */
const MAX_DEPTH = 65536;
/** Deeper containers are elided in the output (keeps the parsed copy shallow). */
const MAX_OUT_DEPTH = 128;

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

class JsonShortener implements Shortener {
  private readonly budget: number;
  private readonly margin: number;
  private readonly keep: number;

  private state = S_VALUE;
  /** Input bytes before the current chunk. */
  private base = 0;

  private readonly out: ShortenedOutput;
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
  private readonly str: StringHead;
  /** The current object member's key, rendered with its quotes. */
  private readonly keyBuf: Buffer;
  private keyLen = 0;

  /** The number or literal being read. */
  private readonly tok = new TokenReader();

  constructor(limit: number) {
    this.budget = Math.max(MIN_LIMIT, Math.floor(limit) || 0);
    this.margin = Math.floor(this.budget / 16);
    this.keep = Math.max(64, Math.min(1024, Math.floor(this.budget / 64)));
    this.out = new ShortenedOutput(Math.min(this.budget, 64 * 1024));
    this.str = new StringHead(this.keep);
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
    return this.out.text();
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
        this.out.put(b);
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
    this.state = this.tok.start(b) ? S_TOKEN : S_BAD;
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
      this.out.put(isObject ? CLOSE_OBJECT : CLOSE_ARRAY);
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
    if (this.out.len + prefix + len + this.reserved + extra > budget) return false;
    if (f.count > 0) this.out.put(COMMA);
    if (f.isObject) {
      this.out.putBytes(this.keyBuf, 0, this.keyLen);
      this.out.put(COLON);
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
    this.str.begin();
    this.state = this.strKeep ? S_STRING : S_SKIP;
  }

  /** Copies the head of a kept string; switches to skipping past the keep size. */
  private copyString(buf: Buffer, i: number): number {
    const str = this.str;
    const j = str.copy(buf, i);
    switch (str.stop) {
      case COPY_CLOSED:
        this.endString(this.base + j);
        return j + 1;
      case COPY_FULL:
        this.state = S_SKIP;
        return j;
      case COPY_BAD:
        return this.bad(buf.length);
      default:
        return j;
    }
  }

  /** Skips the rest of a string to its closing quote. */
  private skipString(buf: Buffer, start: number): number {
    const q = this.str.skip(buf, start);
    if (q === -1) return buf.length;
    this.endString(this.base + q);
    return q + 1;
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
    const str = this.str;
    const cut = raw > str.len;
    const kept = cut ? str.safeCut : str.len;
    const marker = cut ? `[truncated: ${raw} bytes]` : '';
    const len = 2 + kept + (cut ? ELLIPSIS.length + marker.length : 0);
    if (isKey) {
      const kb = this.keyBuf;
      kb[0] = QUOTE;
      str.buf.copy(kb, 1, 0, kept);
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
      this.out.put(QUOTE);
      this.out.putBytes(str.buf, 0, kept);
      if (cut) {
        this.out.putBytes(ELLIPSIS, 0, ELLIPSIS.length);
        this.out.putAscii(marker);
      }
      this.out.put(QUOTE);
    } else {
      this.noteElided(end + 1);
    }
  }

  // ---- numbers and literals ----

  private token(buf: Buffer, i: number): number {
    const j = this.tok.read(buf, i);
    if (this.tok.bad) return this.bad(buf.length);
    if (j < buf.length) this.endToken(this.base + j);
    return j;
  }

  /** `end` is the position just after the token. */
  private endToken(end: number): void {
    const len = this.tok.len;
    if (!this.tok.complete()) {
      this.state = S_BAD;
      return;
    }
    this.valueDone();
    if (len > TOKEN_CAP) {
      if (this.depth === 0) this.state = S_BAD;
      else this.noteElided(end);
      return;
    }
    if (this.depth === 0 || this.admit(len, 0)) this.out.putBytes(this.tok.buf, 0, len);
    else this.noteElided(end);
  }

  // ---- output ----

  private putElisionMarker(f: Frame): void {
    if (f.count > 0) this.out.put(COMMA);
    this.out.put(QUOTE);
    this.out.putBytes(ELLIPSIS, 0, ELLIPSIS.length);
    if (f.isObject) {
      this.out.putAscii('":"');
    }
    this.out.putAscii(`[elided: ${f.elided} bytes]"`);
  }
}

/** The shortener the line splitter uses for over-long lines: same JSON shape, long strings cut, size bounded by `limit`. */
export const jsonShortener: ShortenerFactory = (limit) => new JsonShortener(limit);
