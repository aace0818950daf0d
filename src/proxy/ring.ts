/**
 * The shared ring between the relay thread and the analysis worker: one SharedArrayBuffer, one writer
 * (the relay), one reader (the worker). The relay copies each chunk it forwarded in, with its arrival
 * time, and never waits: no lock, no message, no system call while the worker is awake. Pure: no I/O.
 *
 * Layout: a header of Int32 slots, then the data area. An entry is [u32 length][u8 kind][3 pad][f64 time]
 * then `length` payload bytes, padded to 8. An entry never wraps: where the rest of the area is too short,
 * the writer leaves a WRAP entry (or, with fewer than 16 bytes left, nothing) and starts again at 0.
 */

/** Header slots (Int32 indices). */
export const W = 0;
export const R = 1;
/** 1 while the worker waits for a notify (the writer then wakes it); 0 while it polls. */
export const SLEEPING = 2;
/** 1 while the writer holds chunks the ring had no room for: the worker tells it when room frees. */
export const WANTS_ROOM = 3;
const HEADER_BYTES = 64;
const ENTRY_HEAD = 16;

/** What an entry holds. */
export const Kind = {
  Client: 0,
  Server: 1,
  Stderr: 2,
  /** JSON {name, fields}: one of mcp-tap's events. */
  Event: 3,
  /** JSON {stream, bytes, lines}: relayed bytes of a stream the analysis never saw. */
  Lost: 4,
  /** Payload: the stream (0–2) that ended. */
  End: 5,
  /** JSON fields of the end record: the session ends. */
  Finish: 6,
  Wrap: 7,
} as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** The three streams the relay copies, as entry kinds. */
export type StreamKind = typeof Kind.Client | typeof Kind.Server | typeof Kind.Stderr;

/** The views both threads make of one SharedArrayBuffer. */
export interface RingViews {
  header: Int32Array;
  data: Uint8Array;
  view: DataView;
  capacity: number;
}

/** A ring of `capacity` data bytes (a multiple of 8). */
export function createRing(capacity: number): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + (capacity & ~7));
}

/** The typed views over a ring's buffer, on either side. */
export function ringViews(sab: SharedArrayBuffer): RingViews {
  const capacity = sab.byteLength - HEADER_BYTES;
  return { header: new Int32Array(sab, 0, HEADER_BYTES / 4), data: new Uint8Array(sab, HEADER_BYTES, capacity), view: new DataView(sab, HEADER_BYTES, capacity), capacity };
}

/** Bytes an entry with `payload` bytes takes. */
export function entrySize(payload: number): number {
  return (ENTRY_HEAD + payload + 7) & ~7;
}

/**
 * Where an entry of `size` bytes goes with the write offset at `w` and the read offset at `r`, or -1 when
 * the ring has no room for it now. The ring is empty when w === r, so w never catches up with r.
 */
export function placeEntry(w: number, r: number, size: number, capacity: number): number {
  if (w >= r) {
    const end = w + size;
    if (end < capacity || (end === capacity && r > 0)) return w;
    // wrap: from 0, before r
    return size < r ? 0 : -1;
  }
  return w + size < r ? w : -1;
}

/** Writes an entry head at `at`. */
export function writeEntryHead(v: RingViews, at: number, kind: Kind, length: number, time: number): void {
  v.view.setUint32(at, length, true);
  v.data[at + 4] = kind;
  v.view.setFloat64(at + 8, time, true);
}

/** The largest payload one entry may carry: bigger chunks go in pieces. */
export function maxPayload(capacity: number): number {
  return (capacity >>> 2) - ENTRY_HEAD;
}

/** An entry as the reader sees it: payload offsets into the data area. */
export interface Entry {
  kind: Kind;
  time: number;
  start: number;
  end: number;
}

/** Reads the entry at `r`, or null when `r` must wrap to 0 first (a WRAP entry, or too little room left). */
export function readEntry(v: RingViews, r: number, out: Entry): Entry | null {
  if (v.capacity - r < ENTRY_HEAD) return null;
  const kind = v.data[r + 4] as Kind;
  if (kind === Kind.Wrap) return null;
  const length = v.view.getUint32(r, true);
  out.kind = kind;
  out.time = v.view.getFloat64(r + 8, true);
  out.start = r + ENTRY_HEAD;
  out.end = r + ENTRY_HEAD + length;
  return out;
}

/** Marks the rest of the area from `w` unused (the reader wraps there). */
export function writeWrap(v: RingViews, w: number): void {
  if (v.capacity - w >= ENTRY_HEAD) v.data[w + 4] = Kind.Wrap;
}
