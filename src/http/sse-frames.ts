/**
 * Server-Sent Events bytes → events, for the log's copy of an SSE stream (pure, incremental). Lines end
 * in CRLF, LF or CR, split anywhere across chunks; a blank line dispatches the event; `data` lines join
 * with LF. Memory is bounded: a field value is streamed, never held whole; data past `limit` bytes goes
 * through the shortener and the event carries its head, as the line splitter does for long lines.
 */
import type { Line, Shortener, ShortenerFactory } from '../framing/line-splitter.js';

/** One dispatched event. `data` is a Line (LF and CR replaced by spaces: JSON whitespace, one log line). */
export interface SseEvent {
  /** `event:` field; undefined means the default type, `message`. */
  type?: string;
  /** `id:` field of this event, when it had one. */
  id?: string;
  data: Line;
}

/** Longest field name and event/id value kept; longer ones are cut (no MCP server sends such). */
const MAX_SMALL = 1024;
const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const SPACE = 0x20;

type Field = 'data' | 'event' | 'id' | 'ignore';

/** Incremental SSE parser; one per stream. */
export class SseFrames {
  private name: number[] = [];
  /** Reading the field name (true) or its value (false). */
  private inName = true;
  /** The value's first byte is next (one leading space is dropped). */
  private valueStart = false;
  private field: Field = 'ignore';
  private small: number[] = [];
  private sawCr = false;
  private lineEmpty = true;

  private type: string | undefined;
  private id: string | undefined;
  private hasData = false;
  private kept: Buffer;
  private held = 0;
  private total = 0;
  private shortener: Shortener | null = null;

  constructor(
    private readonly limit: number,
    private readonly onEvent: (event: SseEvent) => void,
    private readonly makeShortener?: ShortenerFactory,
  ) {
    this.kept = Buffer.alloc(Math.min(limit, 4096));
  }

  /** Feed a chunk; calls onEvent for each event completed in it. */
  push(chunk: Buffer): void {
    let i = 0;
    const len = chunk.length;
    while (i < len) {
      const c = chunk[i]!;
      if (this.sawCr) {
        this.sawCr = false;
        if (c === LF) {
          i++;
          continue;
        }
      }
      if (c === CR || c === LF) {
        this.sawCr = c === CR;
        this.endLine();
        i++;
        continue;
      }
      this.lineEmpty = false;
      if (this.inName) {
        if (c === COLON) {
          this.startValue();
        } else if (this.name.length <= MAX_SMALL) this.name.push(c);
        i++;
        continue;
      }
      if (this.valueStart) {
        this.valueStart = false;
        if (c === SPACE) {
          i++;
          continue;
        }
      }
      // a run of value bytes up to the line end
      let end = i;
      while (end < len && chunk[end] !== CR && chunk[end] !== LF) end++;
      this.value(chunk, i, end);
      i = end;
    }
  }

  /** End of stream: an event not yet dispatched by a blank line is dropped, as the SSE spec says. */
  end(): void {
    this.sawCr = false;
    this.resetEvent();
  }

  private startValue(): void {
    this.inName = false;
    this.valueStart = true;
    const name = Buffer.from(this.name).toString('latin1');
    this.field = name === 'data' ? 'data' : name === 'event' ? 'event' : name === 'id' ? 'id' : 'ignore';
    // a comment line (empty name) is ignored
    if (this.field === 'data') {
      if (this.hasData) this.appendData(Buffer.of(LF), 0, 1);
      this.hasData = true;
    }
    this.small = [];
  }

  private value(chunk: Buffer, from: number, to: number): void {
    if (this.field === 'data') this.appendData(chunk, from, to);
    else if (this.field !== 'ignore') {
      for (let k = from; k < to && this.small.length < MAX_SMALL; k++) this.small.push(chunk[k]!);
    }
  }

  private endLine(): void {
    if (this.lineEmpty) {
      this.dispatch();
      return;
    }
    // a line without a colon: the whole line is the field name with an empty value
    if (this.inName) this.startValue();
    if (this.field === 'event') this.type = Buffer.from(this.small).toString('utf8');
    else if (this.field === 'id') {
      const id = Buffer.from(this.small).toString('utf8');
      if (!id.includes('\0')) this.id = id;
    }
    this.name = [];
    this.inName = true;
    this.valueStart = false;
    this.field = 'ignore';
    this.lineEmpty = true;
  }

  private appendData(src: Buffer, from: number, to: number): void {
    const n = to - from;
    if (n <= 0) return;
    this.total += n;
    if (this.shortener !== null) {
      this.shortener.write(src.subarray(from, to));
      return;
    }
    // the head is the first `limit` bytes, however the data arrived (the line splitter's rule)
    const keep = Math.min(n, this.limit - this.held);
    if (keep > 0) this.hold(src, from, from + keep);
    if (keep === n) return;
    this.shortener = (this.makeShortener ?? noShortener)(this.limit);
    this.shortener.write(this.kept.subarray(0, this.held));
    this.shortener.write(src.subarray(from + keep, to));
  }

  /** Appends src[from, to) to the kept head, growing its buffer (at most to the limit). */
  private hold(src: Buffer, from: number, to: number): void {
    const need = this.held + to - from;
    if (need > this.kept.length) {
      const bigger = Buffer.alloc(Math.min(this.limit, Math.max(this.kept.length * 2, need)));
      this.kept.copy(bigger, 0, 0, this.held);
      this.kept = bigger;
    }
    src.copy(this.kept, this.held, from, to);
    this.held = need;
  }

  private dispatch(): void {
    if (this.hasData && this.total > 0) {
      const data = this.kept.subarray(0, this.held);
      for (let k = 0; k < data.length; k++) if (data[k] === LF || data[k] === CR) data[k] = SPACE;
      const line: Line =
        this.shortener === null
          ? { bytes: this.total, data: Buffer.from(data) }
          : { bytes: this.total, head: Buffer.from(data), shortened: this.shortener.finish() };
      const event: SseEvent = { data: line };
      if (this.type !== undefined) event.type = this.type;
      if (this.id !== undefined) event.id = this.id;
      this.resetEvent();
      this.onEvent(event);
      return;
    }
    this.resetEvent();
  }

  private resetEvent(): void {
    this.type = undefined;
    this.id = undefined;
    this.hasData = false;
    this.held = 0;
    this.total = 0;
    this.shortener = null;
    this.name = [];
    this.inName = true;
    this.valueStart = false;
    this.field = 'ignore';
    this.lineEmpty = true;
  }
}

const noShortener: ShortenerFactory = () => ({ write() {}, finish: () => null });
