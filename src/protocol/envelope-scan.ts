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
import { instantiateWasm } from '../wasm-module.js';
import { ENVELOPE_WASM } from './envelope-wasm.js';

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

/** A key name as the scanner's tape codes it: length, first 8 bytes as two little-endian words, the rest. */
interface KeyCode {
  word: string;
  len: number;
  lo: number;
  hi: number;
  rest: string;
}

function keyCode(word: string): KeyCode {
  const b = Buffer.alloc(8);
  b.write(word.slice(0, 8), 'latin1');
  return { word, len: word.length, lo: b.readInt32LE(0), hi: b.readInt32LE(4), rest: word.slice(8) };
}

const PARAMS_GENERAL_CODES = PARAMS_GENERAL.map(keyCode);
const RESULT_GENERAL_CODES = RESULT_GENERAL.map(keyCode);
const PARAMS_KEEP_CODES = PARAMS_KEEP.map(keyCode);
const RESULT_KEEP_CODES = RESULT_KEEP.map(keyCode);
const K_JSONRPC = keyCode('jsonrpc');
const K_ID = keyCode('id');
const K_METHOD = keyCode('method');
const K_PARAMS = keyCode('params');
const K_RESULT = keyCode('result');

const QUOTE = 0x22;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;

/** Lines longer than this take the general path (the scanner's memory holds one line of up to 64 KiB). */
export const FAST_PATH_MAX_BYTES = 65536;

/**
 * The byte work runs in WebAssembly with SIMD (envelope-scan.wat, compiled into envelope-wasm.ts): the
 * line is copied into its memory and validated as one strict JSON object; the members of its first two
 * levels are written to a tape there, which the classification below reads. The validation also tells
 * whether the line's strings may hold bytes >= 0x80; only such a line is checked by isUtf8. Where WebAssembly is unavailable the fast path is off:
 * every line takes the general path (same records, more time).
 */
interface Scanner {
  memory: Uint8Array;
  validate: (n: number) => number;
  /** Per member, ENTRY fields (see envelope-scan.wat). */
  tape: Int32Array;
}

/** What envelope-scan.wat exports. */
interface ScannerExports {
  validate: (n: number) => number;
  mem: { buffer: ArrayBuffer };
}

const TAPE_OFFSET = 65536;
const MAX_MEMBERS = 64;
/** i32 fields per tape entry: parent, key start, key end, value start, value end, key words lo and hi, escaped. */
const ENTRY = 8;

let scanner: Scanner | null | undefined;

function loadScanner(): Scanner | null {
  const exp = instantiateWasm<ScannerExports>(ENVELOPE_WASM);
  if (exp === null) return null;
  // the memory never grows, so these views stay valid
  return { memory: new Uint8Array(exp.mem.buffer), validate: exp.validate, tape: new Int32Array(exp.mem.buffer, TAPE_OFFSET, MAX_MEMBERS * ENTRY) };
}

/** The tape of the line being classified, and its length in entries. */
let tape: Int32Array = new Int32Array(0);
let members = 0;

/**
 * Short plain strings seen before (method names, tool names, string ids), so the common ones cost no
 * allocation: keyed by a hash of the bytes, checked byte for byte, forgotten wholesale when full.
 */
const interned = new Map<number, string>();
const MAX_INTERNED = 512;
const MAX_INTERN_LENGTH = 64;

function hasBackslash(b: Uint8Array, s: number, e: number): boolean {
  for (let k = s; k < e; k++) if (b[k] === BACKSLASH) return true;
  return false;
}

/** The string value from `start` (its opening quote) to `stop` (after its closing quote), decoded exactly as JSON.parse would. */
function stringAt(b: Buffer, start: number, stop: number): string {
  const s = start + 1;
  const e = stop - 1;
  if (e - s > MAX_INTERN_LENGTH) return decoded(b, start, stop, s);
  let h = e - s;
  for (let k = s; k < e; k++) {
    const c = b[k]!;
    if (c >= 0x80 || c === BACKSLASH) return decoded(b, start, stop, k);
    h = (Math.imul(h, 31) + c) | 0;
  }
  const known = interned.get(h);
  if (known !== undefined && known.length === e - s && sameBytes(b, s, known)) return known;
  const text = b.toString('latin1', s, e);
  if (interned.size >= MAX_INTERNED) interned.clear();
  interned.set(h, text);
  return text;
}

/** A string not interned (long, escaped or not ASCII); bytes before `from` are known to hold no backslash. */
function decoded(b: Buffer, start: number, stop: number, from: number): string {
  return hasBackslash(b, from, stop - 1) ? (JSON.parse(b.toString('utf8', start, stop)) as string) : b.toString('utf8', start + 1, stop - 1);
}

function sameBytes(b: Uint8Array, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (b[at + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** The number from `start` to `stop`, exactly as JSON.parse reads it. */
function numberAt(b: Buffer, start: number, stop: number): number {
  if (stop - start <= 15) {
    // plain non-negative integers (nearly every id) without a string: exact below 2^53
    let v = 0;
    let k = start;
    for (; k < stop; k++) {
      const c = b[k]!;
      if (c < ZERO || c > NINE) break;
      v = v * 10 + (c - ZERO);
    }
    if (k === stop) return v;
  }
  return Number(b.toString('latin1', start, stop));
}

/** Is the key of tape entry `t` (its first field's index) spelled `k`? */
function keyIs(b: Uint8Array, t: number, k: KeyCode): boolean {
  return (
    tape[t + 2]! - tape[t + 1]! - 2 === k.len &&
    tape[t + 5] === k.lo &&
    tape[t + 6] === k.hi &&
    (k.rest === '' || sameBytes(b, tape[t + 1]! + 9, k.rest))
  );
}

/** Which of `codes` the key of tape entry `t` spells, if any. */
function keyOf(b: Uint8Array, t: number, codes: readonly KeyCode[]): string | undefined {
  for (const k of codes) if (keyIs(b, t, k)) return k.word;
  return undefined;
}

/** The light params / result of a message that has none of the kept members (most results): shared, never written. */
const NONE_KEPT: Record<string, unknown> = Object.freeze({});

/** A fast-path classification: every member declared, so one allocation of one shape per message. */
class FastClassified implements Classified {
  id: string | number | undefined = undefined;
  method: string | undefined = undefined;
  params: unknown = undefined;
  result: unknown = undefined;
  error: unknown = undefined;
  defect: string | undefined = undefined;
  readonly nullId = false;
  readonly both = false;
  constructor(
    readonly kind: Classified['kind'],
    readonly shape: Classified['shape'],
    readonly hasId: boolean,
  ) {}
}

/**
 * The object value of top-level member `parent` (params or result): a light object with the kept scalar
 * members (as JSON.parse would give them, last duplicate winning), or null when it must go the general way.
 */
function membersOf(b: Buffer, parent: number, keep: readonly KeyCode[], general: readonly KeyCode[]): Record<string, unknown> | null {
  let out: Record<string, unknown> = NONE_KEPT;
  for (let k = parent + 1; k < members && tape[k * ENTRY] === parent; k++) {
    const t = k * ENTRY;
    if (tape[t + 7] !== 0) return null; // an escaped key could spell a watched name
    if (keyOf(b, t, general) !== undefined) return null;
    const key = keyOf(b, t, keep);
    if (key === undefined) continue;
    if (out === NONE_KEPT) out = {};
    const vs = tape[t + 3]!;
    const ve = tape[t + 4]!;
    const c = b[vs]!;
    if (c === QUOTE) out[key] = stringAt(b, vs, ve);
    else if (c === 0x74) out[key] = true;
    else if (c === 0x66) out[key] = false;
    else if (c === 0x6e) out[key] = null;
    else if (c === MINUS || (c >= ZERO && c <= NINE)) out[key] = numberAt(b, vs, ve);
    else return null; // an object or array where a scalar is expected: let the general path judge
  }
  return out;
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
  const n = line.length;
  if (n > FAST_PATH_MAX_BYTES) return null;
  if (scanner === undefined) scanner = loadScanner();
  const s = scanner;
  if (s === null) return null;
  s.memory.set(line, 0);
  const r = s.validate(n);
  if (r < 0) return null;
  // a line that may hold bytes >= 0x80 is checked here: an accepted line is valid UTF-8
  if (r & 0x10000 && !isUtf8(line)) return null;
  tape = s.tape;
  members = r & 0xffff;
  return classifyTape(line);
}

/** The classification from the tape of a valid line: only the five envelope members, each once. */
function classifyTape(b: Buffer): Classified | null {
  let seen = 0;
  let id: string | number | undefined;
  let method: string | undefined;
  let params: Record<string, unknown> | undefined;
  let result: Record<string, unknown> | undefined;
  for (let k = 0; k < members; k++) {
    const t = k * ENTRY;
    if (tape[t] !== -1) continue; // inside params or result: read with its parent
    const vs = tape[t + 3]!;
    const ve = tape[t + 4]!;
    const c = b[vs]!;
    let bit: number;
    // an escaped key never matches these plain spellings: it goes the general way
    if (keyIs(b, t, K_JSONRPC)) {
      bit = HAS_JSONRPC;
      // exactly "2.0" (any other value, even an escaped spelling of it, goes the general way)
      if (ve - vs !== 5 || b[vs + 1] !== 0x32 || b[vs + 2] !== 0x2e || b[vs + 3] !== 0x30) return null;
    } else if (keyIs(b, t, K_ID)) {
      bit = HAS_ID;
      if (c === QUOTE) id = stringAt(b, vs, ve);
      else if (c === MINUS || (c >= ZERO && c <= NINE)) {
        id = numberAt(b, vs, ve);
        if (!Number.isFinite(id)) return null;
      } else return null;
    } else if (keyIs(b, t, K_METHOD)) {
      bit = HAS_METHOD;
      if (c !== QUOTE) return null;
      method = stringAt(b, vs, ve);
    } else if (keyIs(b, t, K_PARAMS)) {
      bit = HAS_PARAMS;
      if (c !== LBRACE) return null;
      const p = membersOf(b, k, PARAMS_KEEP_CODES, PARAMS_GENERAL_CODES);
      if (p === null) return null;
      params = p;
    } else if (keyIs(b, t, K_RESULT)) {
      bit = HAS_RESULT;
      if (c !== LBRACE) return null;
      const r = membersOf(b, k, RESULT_KEEP_CODES, RESULT_GENERAL_CODES);
      if (r === null) return null;
      result = r;
    } else return null;
    if (seen & bit) return null; // a duplicate member: JSON.parse keeps the last, the general path knows
    seen |= bit;
  }
  if (!(seen & HAS_JSONRPC)) return null;
  if (seen & HAS_METHOD) {
    if (seen & HAS_RESULT) return null;
    if (GENERAL_METHODS.has(method!)) return null;
    const hasId = (seen & HAS_ID) !== 0;
    const c = hasId ? new FastClassified('request', 'request', true) : new FastClassified('notification', 'notification', false);
    c.method = method!;
    if (hasId) c.id = id!;
    c.params = params;
    return c;
  }
  if (!(seen & HAS_RESULT) || !(seen & HAS_ID) || seen & HAS_PARAMS) return null;
  const c = new FastClassified('response', 'answer', true);
  c.id = id!;
  c.result = result!;
  return c;
}
