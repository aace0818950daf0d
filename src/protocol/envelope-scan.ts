/**
 * The fast path of the analysis: classifies the common, well-formed message straight from its bytes,
 * without JSON.parse building the whole object tree (for a 1 KiB tools/call that tree costs more than the
 * rest of the analysis together). The scanner validates the entire line as strict JSON but keeps only the
 * envelope: `id`, `method`, and the few scalar members of `params` / `result` that the session's rules read.
 *
 * It is deliberately narrow and never decides anything on its own: whenever a message is unusual (an
 * error, a batch, an unknown top-level member, a duplicate, `_meta`, a lifecycle method, escapes where a
 * value is needed, invalid JSON …) it returns null and the caller takes the general path (JSON.parse +
 * classify), which stays the single authority. test/unit/envelope-scan.test.ts checks both paths agree.
 *
 * A line it accepts is valid UTF-8 (checked once, natively, only when it has a byte >= 0x80) and holds no
 * CR and no LF (whitespace there is only space and tab).
 */
import { isUtf8 } from 'node:buffer';
import type { Classified } from './classify.js';

/** Request / notification methods whose rules read more than the envelope: always the general path. */
const GENERAL_METHODS = new Set(['initialize', 'notifications/initialized', 'notifications/cancelled']);

/**
 * Members of params / result whose mere presence changes what the rules do, or whose object value they
 * read: a message carrying one takes the general path.
 */
const PARAMS_GENERAL = ['_meta', 'inputResponses', 'requestState'];
const RESULT_GENERAL = ['_meta', 'task', 'resultType', 'requestState'];

/** Scalar members copied into the light params / result object (the only ones the rules read). */
const PARAMS_KEEP = ['name', 'uri', 'progressToken', 'progress'];
const RESULT_KEEP = ['isError'];

const MAX_DEPTH = 128;

// Scanner state for one call (module-level: no allocation per message; the scanner is not re-entrant).
let buf: Buffer = Buffer.alloc(0);
let end = 0;
let pos = 0;

const TAB = 0x09;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const E_UP = 0x45;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const E_LOW = 0x65;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

/** Skips JSON whitespace except CR (a line with a CR is re-serialized: the general path's job). */
function ws(): void {
  while (pos < end) {
    const c = buf[pos]!;
    if (c !== SPACE && c !== TAB) return;
    pos++;
  }
}

/**
 * The string scanner's inner loop in WebAssembly SIMD: 16 bytes per step, about 10× a JavaScript byte
 * loop, the one part of the fast path that touches every byte. Source (compiled with wabt's wat2wasm):
 *
 *   (func (export "special") (param $i i32) (param $n i32) (result i32)   ;; first byte in [i, n) that is
 *     (local $v v128) (local $c i32)                                       ;; < 0x20, '"' or '\', else n
 *     (block $tail (loop $blocks
 *       (br_if $tail (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $n)))
 *       (local.set $v (v128.load align=1 (local.get $i)))
 *       (br_if $tail (v128.any_true (v128.or (v128.or
 *         (i8x16.lt_u (local.get $v) (v128.const i8x16 32 …)) (i8x16.eq (local.get $v) (v128.const i8x16 34 …)))
 *         (i8x16.eq (local.get $v) (v128.const i8x16 92 …)))))
 *       (local.set $i (i32.add (local.get $i) (i32.const 16))) (br $blocks)))
 *     (block $done (loop $bytes
 *       (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
 *       (local.set $c (i32.load8_u (local.get $i)))
 *       (br_if $done (i32.lt_u (local.get $c) (i32.const 32)))
 *       (br_if $done (i32.eq (local.get $c) (i32.const 34)))
 *       (br_if $done (i32.eq (local.get $c) (i32.const 92)))
 *       (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $bytes)))
 *     (local.get $i))
 *
 * and `ascii` (1 when every byte of the line is below 0x80: then it is valid UTF-8 without asking
 * `isUtf8`, whose call costs more than this scan; OR of all 16-byte blocks, `i8x16.bitmask`, then the
 * tail byte by byte), with `(memory (export "mem") 1)`: one 64 KiB page, so the fast path takes lines up to 64 KiB (longer
 * ones are rare and JSON.parse's cost is small beside their size). Where WebAssembly SIMD is unavailable
 * the same loop runs in JavaScript.
 */
const SPECIAL_WASM =
  'AGFzbQEAAAABDAJgAn9/AX9gAX8BfwMDAgABBQMBAAEHGQMDbWVtAgAHc3BlY2lhbAAABWFzY2lpAAEK/wECpgECAXsBfwJAA0AgAEEQaiABSw0BIAD9AAAAIQIgAv0MICAgICAgICAgICAgICAgIP0mIAL9DCIiIiIiIiIiIiIiIiIiIiL9I/1QIAL9DFxcXFxcXFxcXFxcXFxcXFz9I/1Q/VMNASAAQRBqIQAMAAsLAkADQCAAIAFPDQEgAC0AACEDIANBIEkNASADQSJGDQEgA0HcAEYNASAAQQFqIQAMAAsLIAALVQIBfwF7AkADQCABQRBqIABLDQEgAiAB/QAAAP1QIQIgAUEQaiEBDAALCwJAA0AgASAATw0BIAEtAABBgAFPBEBBAA8LIAFBAWohAQwACwsgAv1kRQs=';

/** Lines longer than this take the general path (the WebAssembly memory is one page). */
export const FAST_PATH_MAX_BYTES = 65536;

type SpecialFn = (i: number, n: number) => number;
let special: SpecialFn | null = null;
let asciiOnly: ((n: number) => number) | null = null;
let wasmMemory: Uint8Array | null = null;
let wasmTried = false;

function jsSpecial(i: number, n: number): number {
  const b = buf;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x20 || c === QUOTE || c === BACKSLASH) return i;
    i++;
  }
  return n;
}

/** The part of the WebAssembly global used here (the project's lib settings do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: { special: SpecialFn; ascii: (n: number) => number; mem: { buffer: ArrayBuffer } } };
}

function loadWasm(): void {
  wasmTried = true;
  try {
    const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    const exp = new wasm.Instance(new wasm.Module(Buffer.from(SPECIAL_WASM, 'base64'))).exports;
    special = exp.special;
    asciiOnly = exp.ascii;
    wasmMemory = new Uint8Array(exp.mem.buffer);
  } catch {
    special = null; // no WebAssembly (or no SIMD): the JavaScript loop does the same
    asciiOnly = null;
    wasmMemory = null;
  }
}

/** At an opening quote: skips a valid string; returns false when invalid. Sets `escaped` if it has a backslash. */
let escaped = false;
function skipString(): boolean {
  escaped = false;
  const b = buf;
  const n = end;
  const find = special ?? jsSpecial;
  let i = pos + 1;
  for (;;) {
    i = find(i, n);
    if (i >= n) return false;
    const c = b[i]!;
    if (c === QUOTE) {
      pos = i + 1;
      return true;
    }
    if (c < 0x20 || i + 1 >= n) return false;
    // a backslash
    escaped = true;
    const e = b[i + 1]!;
    if (e === 0x75 /* u */) {
      if (i + 5 >= n) return false;
      for (let k = i + 2; k < i + 6; k++) {
        const h = b[k]!;
        if (!((h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66))) return false;
      }
      i += 6;
    } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
      // " \ / b f n r t
      i += 2;
    } else return false;
  }
}

function digits(): number {
  const start = pos;
  while (pos < end) {
    const c = buf[pos]!;
    if (c < ZERO || c > NINE) break;
    pos++;
  }
  return pos - start;
}

/** Skips a valid JSON number (strict grammar); false when invalid. */
function skipNumber(): boolean {
  if (buf[pos] === MINUS) pos++;
  if (pos >= end) return false;
  const first = buf[pos]!;
  if (first === ZERO) pos++;
  else if (first < 0x31 || first > NINE) return false;
  else digits();
  if (pos < end && buf[pos] === DOT) {
    pos++;
    if (digits() === 0) return false;
  }
  if (pos < end && (buf[pos] === E_LOW || buf[pos] === E_UP)) {
    pos++;
    if (pos < end && (buf[pos] === PLUS || buf[pos] === MINUS)) pos++;
    if (digits() === 0) return false;
  }
  return true;
}

function literal(word: string): boolean {
  if (pos + word.length > end) return false;
  for (let k = 0; k < word.length; k++) if (buf[pos + k] !== word.charCodeAt(k)) return false;
  pos += word.length;
  return true;
}

/** Skips any valid JSON value at pos (after whitespace); false when invalid or nested too deep. */
function skipValue(depth: number): boolean {
  if (pos >= end) return false;
  const c = buf[pos]!;
  switch (c) {
    case QUOTE:
      return skipString();
    case LBRACE:
      return skipObject(depth + 1);
    case LBRACKET:
      return skipArray(depth + 1);
    case 0x74:
      return literal('true');
    case 0x66:
      return literal('false');
    case 0x6e:
      return literal('null');
    default:
      return (c === MINUS || (c >= ZERO && c <= NINE)) && skipNumber();
  }
}

function skipObject(depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  pos++;
  ws();
  if (buf[pos] === RBRACE) {
    pos++;
    return true;
  }
  for (;;) {
    if (buf[pos] !== QUOTE || !skipString()) return false;
    ws();
    if (buf[pos] !== COLON) return false;
    pos++;
    ws();
    if (!skipValue(depth)) return false;
    ws();
    const c = buf[pos];
    pos++;
    if (c === RBRACE) return true;
    if (c !== COMMA) return false;
    ws();
  }
}

function skipArray(depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  pos++;
  ws();
  if (buf[pos] === RBRACKET) {
    pos++;
    return true;
  }
  for (;;) {
    ws();
    if (!skipValue(depth)) return false;
    ws();
    const c = buf[pos];
    pos++;
    if (c === RBRACKET) return true;
    if (c !== COMMA) return false;
  }
}

/**
 * Short plain strings seen before (method names, tool names, string ids), so the common ones cost no
 * allocation: keyed by a hash of the bytes, checked byte for byte, forgotten wholesale when full.
 */
const interned = new Map<number, string>();
const MAX_INTERNED = 512;
const MAX_INTERN_LENGTH = 64;

/** The string value just skipped (from `start`, its opening quote, to pos): decoded exactly as JSON.parse would. */
function stringAt(start: number): string {
  if (escaped) return JSON.parse(buf.toString('utf8', start, pos)) as string;
  const s = start + 1;
  const e = pos - 1;
  if (e - s > MAX_INTERN_LENGTH) return buf.toString('utf8', s, e);
  let h = e - s;
  for (let k = s; k < e; k++) {
    const c = buf[k]!;
    if (c >= 0x80) return buf.toString('utf8', s, e);
    h = (Math.imul(h, 31) + c) | 0;
  }
  const known = interned.get(h);
  if (known !== undefined && known.length === e - s && sameBytes(s, known)) return known;
  const text = buf.toString('latin1', s, e);
  if (interned.size >= MAX_INTERNED) interned.clear();
  interned.set(h, text);
  return text;
}

function sameBytes(at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (buf[at + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** The number just skipped (from `start` to pos), exactly as JSON.parse reads it. */
function numberAt(start: number): number {
  if (pos - start <= 15) {
    // plain non-negative integers (nearly every id) without a string: exact below 2^53
    let n = 0;
    let k = start;
    for (; k < pos; k++) {
      const c = buf[k]!;
      if (c < ZERO || c > NINE) break;
      n = n * 10 + (c - ZERO);
    }
    if (k === pos) return n;
  }
  return Number(buf.toString('latin1', start, pos));
}

/** Which of `words` the plain key just skipped (quote at `start`) spells, if any. */
function keyOf(start: number, words: readonly string[]): string | undefined {
  const len = pos - start - 2;
  for (const w of words) if (w.length === len && sameBytes(start + 1, w)) return w;
  return undefined;
}

const GENERAL = Symbol('general');

/**
 * At `{` of params or result: validates it and returns a light object with the kept scalar members
 * (as JSON.parse would give them, last duplicate winning), or GENERAL / null (invalid).
 */
function scanMembers(keep: readonly string[], general: readonly string[]): Record<string, unknown> | typeof GENERAL | null {
  const out: Record<string, unknown> = {};
  pos++;
  ws();
  if (buf[pos] === RBRACE) {
    pos++;
    return out;
  }
  for (;;) {
    const ks = pos;
    if (buf[pos] !== QUOTE || !skipString()) return null;
    if (escaped) return GENERAL; // an escaped key could spell a watched name
    if (keyOf(ks, general) !== undefined) return GENERAL;
    const key = keyOf(ks, keep);
    ws();
    if (buf[pos] !== COLON) return null;
    pos++;
    ws();
    const vs = pos;
    if (!skipValue(1)) return null;
    if (key !== undefined) {
      const c = buf[vs]!;
      if (c === QUOTE) out[key] = stringAt(vs);
      else if (c === 0x74) out[key] = true;
      else if (c === 0x66) out[key] = false;
      else if (c === 0x6e) out[key] = null;
      else if (c === MINUS || (c >= ZERO && c <= NINE)) out[key] = numberAt(vs);
      else return GENERAL; // an object or array where a scalar is expected: let the general path judge
    }
    ws();
    const c = buf[pos];
    pos++;
    if (c === RBRACE) return out;
    if (c !== COMMA) return null;
    ws();
  }
}

const HAS_JSONRPC = 1;
const HAS_ID = 2;
const HAS_METHOD = 4;
const HAS_PARAMS = 8;
const HAS_RESULT = 16;

/**
 * Classifies one line (without its LF) when it is a plain request, notification or result response;
 * null means "take the general path" (which includes every invalid line). A line it accepts is strict
 * JSON, valid UTF-8, and holds no CR.
 */
export function scanEnvelope(line: Buffer): Classified | null {
  if (line.length > FAST_PATH_MAX_BYTES) return null;
  if (!wasmTried) loadWasm();
  if (wasmMemory !== null) wasmMemory.set(line, 0);
  // bytes >= 0x80 are only checked here: an accepted line is valid UTF-8
  if (asciiOnly !== null ? asciiOnly(line.length) === 0 && !isUtf8(line) : !isUtf8(line)) return null;
  buf = line;
  end = line.length;
  pos = 0;
  try {
    return scanTop();
  } finally {
    buf = EMPTY;
  }
}

const EMPTY = Buffer.alloc(0);

function scanTop(): Classified | null {
  ws();
  if (buf[pos] !== LBRACE) return null;
  pos++;
  ws();
  let seen = 0;
  let id: string | number | undefined;
  let method: string | undefined;
  let params: Record<string, unknown> | undefined;
  let result: Record<string, unknown> | undefined;
  if (buf[pos] === RBRACE) return null;
  for (;;) {
    const ks = pos;
    if (buf[pos] !== QUOTE || !skipString()) return null;
    if (escaped) return null;
    const klen = pos - ks - 2;
    ws();
    if (buf[pos] !== COLON) return null;
    pos++;
    ws();
    const vs = pos;
    const c = buf[pos];
    let bit: number;
    if (klen === 7 && sameBytes(ks + 1, 'jsonrpc')) {
      bit = HAS_JSONRPC;
      // exactly "2.0" (any other value, even an escaped spelling of it, goes the general way)
      if (!literal('"2.0"')) return null;
    } else if (klen === 2 && sameBytes(ks + 1, 'id')) {
      bit = HAS_ID;
      if (c === QUOTE) {
        if (!skipString()) return null;
        id = stringAt(vs);
      } else if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) {
        if (!skipNumber()) return null;
        id = numberAt(vs);
        if (!Number.isFinite(id)) return null;
      } else return null;
    } else if (klen === 6 && sameBytes(ks + 1, 'method')) {
      bit = HAS_METHOD;
      if (c !== QUOTE || !skipString()) return null;
      method = stringAt(vs);
    } else if (klen === 6 && sameBytes(ks + 1, 'params')) {
      bit = HAS_PARAMS;
      if (c !== LBRACE) return null;
      const p = scanMembers(PARAMS_KEEP, PARAMS_GENERAL);
      if (p === null || p === GENERAL) return null;
      params = p;
    } else if (klen === 6 && sameBytes(ks + 1, 'result')) {
      bit = HAS_RESULT;
      if (c !== LBRACE) return null;
      const r = scanMembers(RESULT_KEEP, RESULT_GENERAL);
      if (r === null || r === GENERAL) return null;
      result = r;
    } else return null;
    if (seen & bit) return null; // a duplicate member: JSON.parse keeps the last, the general path knows
    seen |= bit;
    ws();
    const sep = buf[pos];
    pos++;
    if (sep === RBRACE) break;
    if (sep !== COMMA) return null;
    ws();
  }
  ws();
  if (pos !== end) return null; // trailing bytes: not one JSON value
  if (!(seen & HAS_JSONRPC)) return null;
  if (seen & HAS_METHOD) {
    if (seen & HAS_RESULT) return null;
    if (GENERAL_METHODS.has(method!)) return null;
    const hasId = (seen & HAS_ID) !== 0;
    const c: Classified = { kind: hasId ? 'request' : 'notification', shape: hasId ? 'request' : 'notification', hasId, nullId: false, both: false, method: method! };
    if (hasId) c.id = id!;
    if (params !== undefined) c.params = params;
    return c;
  }
  if (!(seen & HAS_RESULT) || !(seen & HAS_ID) || seen & HAS_PARAMS) return null;
  return { kind: 'response', shape: 'answer', id: id!, hasId: true, nullId: false, both: false, result: result! };
}
