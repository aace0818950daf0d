/**
 * Spans → an OTLP protobuf `ExportTraceServiceRequest`, encoded by hand for just the messages it needs
 * (opentelemetry/proto trace/v1, common/v1, resource/v1; field numbers cited below). Pure. A test decodes
 * the output with the receiver's own protobufjs and the official .proto files.
 */
import type { AttrValue, Attributes, Span } from './spans.js';
import { SPAN_KIND_CODE, STATUS_CODE, type SpanOrigin } from './otlp-json.js';

/** Builds one message's bytes; nested messages are built first and written length-prefixed. */
class Msg {
  private readonly parts: Buffer[] = [];
  private size = 0;

  private push(b: Buffer): void {
    this.parts.push(b);
    this.size += b.length;
  }

  private varint(n: number | bigint): void {
    let v = BigInt(n);
    if (v < 0n) v += 1n << 64n; // two's complement for negative int64
    const bytes: number[] = [];
    while (v > 0x7fn) {
      bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    bytes.push(Number(v));
    this.push(Buffer.from(bytes));
  }

  private tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  bytes(field: number, b: Buffer): this {
    this.tag(field, 2);
    this.varint(b.length);
    this.push(b);
    return this;
  }

  string(field: number, s: string): this {
    return s === '' ? this : this.bytes(field, Buffer.from(s, 'utf8'));
  }

  hex(field: number, h: string | undefined): this {
    return h === undefined || h === '' ? this : this.bytes(field, Buffer.from(h, 'hex'));
  }

  message(field: number, m: Msg): this {
    return this.bytes(field, m.done());
  }

  uint(field: number, n: number | bigint): this {
    if (n === 0 || n === 0n) return this;
    this.tag(field, 0);
    this.varint(n);
    return this;
  }

  int(field: number, n: number): this {
    this.tag(field, 0);
    this.varint(n);
    return this;
  }

  bool(field: number, b: boolean): this {
    this.tag(field, 0);
    this.varint(b ? 1 : 0);
    return this;
  }

  double(field: number, d: number): this {
    this.tag(field, 1);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(d);
    this.push(b);
    return this;
  }

  fixed64(field: number, n: bigint): this {
    this.tag(field, 1);
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(n);
    this.push(b);
    return this;
  }

  done(): Buffer {
    return Buffer.concat(this.parts, this.size);
  }
}

const nanos = (ms: number): bigint => BigInt(Math.round(ms * 1000)) * 1000n;

/** common.v1.AnyValue: string_value 1, bool_value 2, int_value 3, double_value 4, array_value 5. */
function anyValue(v: AttrValue): Msg {
  const m = new Msg();
  if (typeof v === 'string') return m.bytes(1, Buffer.from(v, 'utf8'));
  if (typeof v === 'boolean') return m.bool(2, v);
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) return m.double(4, v);
    return m.int(3, v); // a oneof member is written even when 0: its presence says which member
  }
  // ArrayValue: repeated AnyValue values = 1
  const arr = new Msg();
  for (const s of v) arr.message(1, anyValue(s));
  return m.message(5, arr);
}

/** Repeated common.v1.KeyValue (key 1, value 2) at `field`. */
function keyValues(m: Msg, field: number, attrs: Attributes): void {
  for (const [key, value] of Object.entries(attrs)) m.message(field, new Msg().string(1, key).message(2, anyValue(value)));
}

/**
 * trace.v1.Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, start 7, end 8 (fixed64),
 * attributes 9, events 11 (time 1, name 2, attributes 3), links 13 (trace_id 1, span_id 2),
 * status 15 (message 2, code 3).
 */
function span(s: Span): Msg {
  const m = new Msg().hex(1, s.traceId).hex(2, s.spanId).hex(4, s.parentSpanId).string(5, s.name).uint(6, SPAN_KIND_CODE[s.kind]);
  m.fixed64(7, nanos(s.start)).fixed64(8, nanos(s.end));
  keyValues(m, 9, s.attributes);
  for (const e of s.events) {
    const em = new Msg().fixed64(1, nanos(e.time)).string(2, e.name);
    keyValues(em, 3, e.attributes);
    m.message(11, em);
  }
  for (const l of s.links) m.message(13, new Msg().hex(1, l.traceId).hex(2, l.spanId));
  return m.message(15, new Msg().string(2, s.status.message ?? '').uint(3, STATUS_CODE[s.status.code]));
}

/**
 * ExportTraceServiceRequest { resource_spans 1 }; ResourceSpans { resource 1, scope_spans 2 };
 * Resource { attributes 1 }; ScopeSpans { scope 1, spans 2 }; InstrumentationScope { name 1, version 2 }.
 */
export function encodeTraceRequest(spans: readonly Span[], origin: SpanOrigin): Buffer {
  const resource = new Msg();
  keyValues(resource, 1, origin.resource);
  const scopeSpans = new Msg().message(1, new Msg().string(1, origin.scope.name).string(2, origin.scope.version));
  for (const s of spans) scopeSpans.message(2, span(s));
  const rs = new Msg().message(1, resource).message(2, scopeSpans);
  return new Msg().message(1, rs).done();
}
