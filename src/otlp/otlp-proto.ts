/**
 * Spans → an OTLP protobuf `ExportTraceServiceRequest`, encoded by hand for just the messages it needs
 * (opentelemetry/proto trace/v1, common/v1, resource/v1; field numbers cited below). Pure. A test decodes
 * the output with the receiver's own protobufjs and the official .proto files.
 */
import type { AttrValue, Attributes, Span } from './spans.js';
import { SPAN_KIND_CODE, STATUS_CODE, type SpanOrigin } from './otlp-json.js';

/**
 * Writes a message into one growing buffer. A nested message is forked (5 bytes reserved for its
 * length), written in place, and closed with its length (the content moved back when the length took
 * fewer bytes): no buffer per nested message, as protobufjs does it.
 */
export class Writer {
  private buf = Buffer.allocUnsafe(4096);
  private pos = 0;
  private readonly stack: number[] = [];
  /** The last ids written, as bytes: a batch's spans share their trace id and parent (the session's root). */
  private readonly ids = new Map<string, Buffer>();

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  private varint(n: number): void {
    this.ensure(10);
    if (n < 0) {
      // a negative int64: ten bytes of two's complement
      let v = BigInt.asUintN(64, BigInt(n));
      while (v > 0x7fn) {
        this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
        v >>= 7n;
      }
      this.buf[this.pos++] = Number(v);
      return;
    }
    while (n > 0x7f) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }

  private tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  /** Starts the nested message at `field`; end it with close(). */
  fork(field: number): this {
    this.tag(field, 2);
    this.ensure(5);
    this.stack.push(this.pos);
    this.pos += 5;
    return this;
  }

  close(): this {
    const start = this.stack.pop()!;
    const len = this.pos - start - 5;
    let lenBytes = 1;
    for (let v = len; v > 0x7f; v = Math.floor(v / 0x80)) lenBytes++;
    // most nested messages (a KeyValue, an AnyValue) are a few bytes: moved in JS, not through a binding
    const buf = this.buf;
    if (len <= 64) for (let i = 0; i < len; i++) buf[start + lenBytes + i] = buf[start + 5 + i]!;
    else buf.copy(buf, start + lenBytes, start + 5, this.pos);
    // the length goes into the reserved bytes (no ensure(): the buffer must not move under the content)
    let at = start;
    for (let v = len; ; v = Math.floor(v / 0x80)) {
      if (v <= 0x7f) {
        this.buf[at++] = v;
        break;
      }
      this.buf[at++] = (v % 0x80) | 0x80;
    }
    this.pos = start + lenBytes + len;
    return this;
  }

  string(field: number, s: string, always = false): this {
    if (s === '' && !always) return this;
    // short ASCII (keys, method names, ids) byte by byte: Buffer.write costs more than the copy
    if (s.length < 128) {
      this.tag(field, 2);
      this.ensure(s.length + 1);
      const at = this.pos;
      this.buf[at] = s.length;
      let i = 0;
      for (; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        this.buf[at + 1 + i] = c;
      }
      if (i === s.length) {
        this.pos = at + 1 + i;
        return this;
      }
      this.pos = at - 1; // not ASCII: undo the tag (one byte for fields < 16) and write it the general way
    }
    const n = Buffer.byteLength(s, 'utf8');
    this.tag(field, 2);
    this.varint(n);
    this.ensure(n);
    this.pos += this.buf.write(s, this.pos, 'utf8');
    return this;
  }

  hex(field: number, h: string | undefined): this {
    if (h === undefined || h === '') return this;
    this.tag(field, 2);
    this.varint(h.length / 2);
    this.ensure(h.length / 2);
    // a span's own id is written once; ids that come back in a batch (trace, parent) are copied from bytes
    const bytes = field === 2 ? undefined : this.idBytes(h);
    if (bytes === undefined) this.pos += this.buf.write(h, this.pos, 'hex');
    else {
      const buf = this.buf;
      for (let i = 0; i < bytes.length; i++) buf[this.pos + i] = bytes[i]!;
      this.pos += bytes.length;
    }
    return this;
  }

  private idBytes(h: string): Buffer {
    let bytes = this.ids.get(h);
    if (bytes === undefined) {
      if (this.ids.size >= 16) this.ids.clear();
      bytes = Buffer.from(h, 'hex');
      this.ids.set(h, bytes);
    }
    return bytes;
  }

  uint(field: number, n: number): this {
    return n === 0 ? this : this.int(field, n);
  }

  int(field: number, n: number): this {
    this.tag(field, 0);
    this.varint(n);
    return this;
  }

  bool(field: number, b: boolean): this {
    return this.int(field, b ? 1 : 0);
  }

  double(field: number, d: number): this {
    this.tag(field, 1);
    this.ensure(8);
    this.pos = this.buf.writeDoubleLE(d, this.pos);
    return this;
  }

  /** A fixed64 holding a whole number below 2^53 (counts). */
  fixed64(field: number, n: number): this {
    this.tag(field, 1);
    this.ensure(8);
    this.putFixed64(n);
    return this;
  }

  /** A packed repeated fixed64 of whole numbers below 2^53. */
  packedFixed64(field: number, ns: readonly number[]): this {
    this.tag(field, 2);
    this.varint(ns.length * 8);
    this.ensure(ns.length * 8);
    for (const n of ns) this.putFixed64(n);
    return this;
  }

  /** The 8 bytes of a whole number below 2^53, little-endian, where room was ensured. */
  private putFixed64(n: number): void {
    const hi = Math.floor(n / 0x1_0000_0000);
    this.pos = this.buf.writeUInt32LE(n - hi * 0x1_0000_0000, this.pos);
    this.pos = this.buf.writeUInt32LE(hi, this.pos);
  }

  /** A packed repeated double. */
  packedDouble(field: number, ds: readonly number[]): this {
    this.tag(field, 2);
    this.varint(ds.length * 8);
    this.ensure(ds.length * 8);
    for (const d of ds) this.pos = this.buf.writeDoubleLE(d, this.pos);
    return this;
  }

  /** Epoch nanoseconds from whole microseconds (below 2^53), without a BigInt: low and high 32 bits, exact. */
  nanos(field: number, micros: number): this {
    this.tag(field, 1);
    this.ensure(8);
    const hi = Math.floor(micros / 0x1_0000_0000);
    const lo = (micros - hi * 0x1_0000_0000) * 1000;
    const carry = Math.floor(lo / 0x1_0000_0000);
    this.pos = this.buf.writeUInt32LE(lo - carry * 0x1_0000_0000, this.pos);
    this.pos = this.buf.writeUInt32LE(hi * 1000 + carry, this.pos);
    return this;
  }

  done(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

/** Epoch ms (fractional) → whole µs. */
export const micros = (ms: number): number => Math.round(ms * 1000);

/** common.v1.AnyValue: string_value 1, bool_value 2, int_value 3, double_value 4, array_value 5. */
function anyValue(w: Writer, field: number, v: AttrValue): void {
  w.fork(field);
  if (typeof v === 'string') w.string(1, v, true);
  else if (typeof v === 'boolean') w.bool(2, v);
  // a oneof member is written even when 0 or "": its presence says which member
  else if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) w.int(3, v);
    else w.double(4, v);
  } else {
    // ArrayValue: repeated AnyValue values = 1
    w.fork(5);
    for (const s of v) anyValue(w, 1, s);
    w.close();
  }
  w.close();
}

/** Repeated common.v1.KeyValue (key 1, value 2) at `field`. */
export function keyValues(w: Writer, field: number, attrs: Attributes): void {
  for (const key in attrs) {
    w.fork(field).string(1, key);
    anyValue(w, 2, attrs[key]!);
    w.close();
  }
}

/**
 * trace.v1.Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, start 7, end 8 (fixed64),
 * attributes 9, events 11 (time 1, name 2, attributes 3), links 13 (trace_id 1, span_id 2),
 * status 15 (message 2, code 3).
 */
function span(w: Writer, s: Span): void {
  w.fork(2).hex(1, s.traceId).hex(2, s.spanId).hex(4, s.parentSpanId).string(5, s.name).uint(6, SPAN_KIND_CODE[s.kind]);
  w.nanos(7, micros(s.start)).nanos(8, micros(s.end));
  keyValues(w, 9, s.attributes);
  for (const e of s.events) {
    w.fork(11).nanos(1, micros(e.time)).string(2, e.name);
    keyValues(w, 3, e.attributes);
    w.close();
  }
  for (const l of s.links) w.fork(13).hex(1, l.traceId).hex(2, l.spanId).close();
  w.fork(15).string(2, s.status.message ?? '').uint(3, STATUS_CODE[s.status.code]).close();
  w.close();
}

/**
 * ExportTraceServiceRequest { resource_spans 1 }; ResourceSpans { resource 1, scope_spans 2 };
 * Resource { attributes 1 }; ScopeSpans { scope 1, spans 2 }; InstrumentationScope { name 1, version 2 }.
 */
export function encodeTraceRequest(spans: readonly Span[], origin: SpanOrigin): Buffer {
  const w = new Writer();
  w.fork(1); // ResourceSpans
  w.fork(1); // Resource
  keyValues(w, 1, origin.resource);
  w.close();
  w.fork(2); // ScopeSpans
  w.fork(1).string(1, origin.scope.name).string(2, origin.scope.version).close();
  for (const s of spans) span(w, s);
  w.close();
  w.close();
  return w.done();
}
