/**
 * Spans of a record stream that interleaves sessions (HTTP mode writes one record stream per MCP
 * session into one log, and live): one SpanBuilder per session, each closed by its end record. Pure.
 * A stream of one session at a time (stdio mode) costs one Map lookup per record.
 */
import type { LogRecord } from '../log/record.js';
import { SpanBuilder, type MsgSource, type Span, type SpanOptions } from './spans.js';

/** Sessions open at once; past it the least recently seen one is closed where it stopped. */
const MAX_SESSIONS = 1000;

export class SessionSpans {
  private readonly builders = new Map<string, { builder: SpanBuilder; last: number }>();
  private lastSession = '';
  private lastBuilder: SpanBuilder | null = null;

  constructor(private readonly opts: SpanOptions = {}) {}

  /** The next record; the spans it finished. */
  push(record: LogRecord, msg?: MsgSource): Span[] {
    const out: Span[] = [];
    let b = record.session === this.lastSession ? this.lastBuilder : null;
    if (b === null) {
      const entry = this.builders.get(record.session);
      if (entry !== undefined) {
        b = entry.builder;
        // least recently seen first
        this.builders.delete(record.session);
        this.builders.set(record.session, entry);
      } else {
        if (this.builders.size >= MAX_SESSIONS) {
          const [oldest, e] = this.builders.entries().next().value as [string, { builder: SpanBuilder; last: number }];
          this.builders.delete(oldest);
          out.push(...e.builder.finish(e.last));
        }
        b = new SpanBuilder(this.opts);
        this.builders.set(record.session, { builder: b, last: record.time });
      }
      this.lastSession = record.session;
      this.lastBuilder = b;
    }
    const entry = this.builders.get(record.session);
    if (entry !== undefined) entry.last = record.time;
    for (const s of b.push(record, msg)) out.push(s);
    if (record.kind === 'event' && record.event === 'end') {
      this.builders.delete(record.session);
      this.lastSession = '';
      this.lastBuilder = null;
    }
    return out;
  }

  /** Ends what is still open in every session (a log without end records). */
  finish(time: number): Span[] {
    const out: Span[] = [];
    for (const { builder, last } of this.builders.values()) out.push(...builder.finish(Math.max(time, last)));
    this.builders.clear();
    this.lastSession = '';
    this.lastBuilder = null;
    return out;
  }
}
