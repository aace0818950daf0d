/**
 * The WebAssembly record-head writer (head-writer.wat, compiled into head-writer-wasm.ts) and its memory
 * layout. head-templates.ts matches a record to a template and checks its numbers; this writes the bytes of
 * a message record's head in one call, where the same in JavaScript was a dozen typed-array copies and
 * digit loops per record (and the largest code V8 compiled in a session's first second).
 */
import { instantiateWasm } from '../wasm-module.js';
import { HEAD_WRITER_WASM } from './head-writer-wasm.js';

/** Template slots in the module's memory: head-templates.ts keeps at most this many templates. */
export const HEAD_SLOTS = 8;
/** Runs per template slot (a template has at most 32 variable values, so 33 runs). */
const SLOT_RUNS = 33;
/** Bytes of runs per template slot. */
const SLOT_BYTES = 4096;
/** Bytes the session tail may take. */
const TAIL_BYTES = 1024;

const TAIL_AT = 1024;
const VALUES_AT = 2048;
const TABLE_AT = 4096;
const TABLE_STRIDE = 512;
const RUNS_AT = 8192;
const OUT_AT = 65536;
/** The longest head the module writes: start, tail, 33 runs, 33 values of at most 18 characters. */
const OUT_MAX = 14 + 18 + TAIL_BYTES + 10 + SLOT_BYTES + SLOT_RUNS * 18;

/** The writer; see head-writer.wat for what each call writes. */
export interface HeadWriter {
  /** [0] the record's time, [1 + r] its template's variable value r: each × 1000, exact (thousandths()). */
  readonly values: Float64Array;
  /** Holds the session tail for the heads that follow; false when it is too long (those take the JavaScript path). */
  session(tail: Uint8Array): boolean;
  /** Holds a template's runs in slot `slot`; false when they do not fit (that template takes the JavaScript path). */
  template(slot: number, runs: readonly Uint8Array[]): boolean;
  /** Writes the head of a record of template `slot` with `n` values; returns its length (its bytes: bytes(length)). */
  head(slot: number, n: number, seq: number): number;
  /** The head just written, `length` bytes (a view kept per length: no allocation per record). */
  bytes(length: number): Uint8Array;
}

/** What head-writer.wat exports. */
interface WriterExports {
  head: (slot: number, n: number, tail: number, seq: number) => number;
  mem: { buffer: ArrayBuffer };
}

/** The writer, or null where WebAssembly is unavailable (heads are then written in JavaScript: same bytes). */
export function loadHeadWriter(): HeadWriter | null {
  const exp = instantiateWasm<WriterExports>(HEAD_WRITER_WASM);
  if (exp === null) return null;
  // the memory never grows, so these views stay valid
  const memory = new Uint8Array(exp.mem.buffer);
  const table = new Int32Array(exp.mem.buffer, TABLE_AT, (HEAD_SLOTS * TABLE_STRIDE) / 4);
  const views: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(OUT_MAX + 1).fill(undefined);
  const write = exp.head;
  let tail = 0;
  return {
    values: new Float64Array(exp.mem.buffer, VALUES_AT, SLOT_RUNS + 1),
    session(bytes) {
      if (bytes.length > TAIL_BYTES) return false;
      memory.set(bytes, TAIL_AT);
      tail = bytes.length;
      return true;
    },
    template(slot, runs) {
      let size = 0;
      for (const run of runs) size += run.length;
      if (runs.length > SLOT_RUNS || size > SLOT_BYTES) return false;
      let at = RUNS_AT + slot * SLOT_BYTES;
      let entry = (slot * TABLE_STRIDE) / 4;
      for (const run of runs) {
        memory.set(run, at);
        table[entry++] = at;
        table[entry++] = run.length;
        at += run.length;
      }
      return true;
    },
    head: (slot, n, seq) => write(slot, n, tail, seq),
    bytes(length) {
      let view = views[length];
      if (view === undefined) views[length] = view = memory.subarray(OUT_AT, OUT_AT + length);
      return view;
    },
  };
}
