/**
 * The logic of `mcp-tap tail` between reading and writing: filtering, session context, rendering (or
 * JSON), and choosing which history to show before following. Pure: records in, text out; the command
 * file feeds it from the log and writes what it returns.
 */
import { LOG_FORMAT_VERSION, type LogRecord } from '../log/record.js';
import type { ColorLevel } from './color.js';
import type { RecordFilter } from './filters.js';
import { jsonLine } from './json-line.js';
import { renderRecord } from './render-line.js';
import { SessionContext } from './session-context.js';

export interface TailFormatOptions {
  filter: RecordFilter;
  /** Records as JSON lines instead of the terminal view. */
  json: boolean;
  color: ColorLevel;
  full: boolean;
  width?: number;
  /**
   * Redaction, applied to every record before it is shown (JSON and terminal view alike). Called in file
   * order for every record with a `raw` line, shown or not (a redactor follows a secret over several raw
   * lines, as RecordRedactor does with PEM blocks), and for every event (the session context keeps their
   * strings); other records are redacted only when their output is made, possibly later — for those the
   * function must not depend on order (RecordRedactor.next does not).
   */
  redact?: (r: LogRecord) => LogRecord;
}

/** One record → the text to print (with its newline), or null when the filters drop it. */
export class TailFormatter {
  private readonly ctx = new SessionContext();
  /** The highest format version seen that is newer than this build's, once, for a notice. */
  newerVersion: number | null = null;

  constructor(private readonly opts: TailFormatOptions) {}

  format(r: LogRecord): string | null {
    const later = this.prepare(r);
    return later === null ? null : later();
  }

  /**
   * Like format, but renders only when the returned function is called: while catching up with a long
   * log, only the records that end up in the history are rendered. The session context and the
   * redactor still see every record in order.
   */
  prepare(r: LogRecord): (() => string) | null {
    const redact = this.opts.redact;
    // in order, shown or not: raw lines (a secret may span several) and events (the context keeps their strings)
    const early = redact && (typeof r.raw === 'string' || r.kind === 'event') ? redact(r) : undefined;
    const info = this.ctx.observe(early ?? r);
    if (typeof r.v === 'number' && r.v > LOG_FORMAT_VERSION && (this.newerVersion === null || r.v > this.newerVersion)) this.newerVersion = r.v;
    if (!this.opts.filter(r)) return null;
    // the rest is redacted only when rendered: with -n, most records of a long log never are
    const shown = (): LogRecord => early ?? (redact ? redact(r) : r);
    if (this.opts.json) return () => `${jsonLine(shown())}\n`;
    const { color, full, width } = this.opts;
    return () => `${renderRecord(shown(), { color, full, width, session: info })}\n`;
  }
}

/** What an entry of the history is: a record's output, or a session's header or footer separator. */
export type RingRole = 'item' | 'header' | 'footer';

/**
 * The last `max` items pushed (all of them when max is Infinity), with the session separators around
 * them: the header just before the first item kept, and headers and footers between items. A session
 * none of whose records is kept leaves no separators behind, so memory stays bounded by `max`.
 */
export class Ring<T> {
  private items: { x: T; role: RingRole }[] = [];
  constructor(
    private readonly max: number,
    /** Drop the separators of sessions with nothing shown (when filters are active); else keep them. */
    private readonly collapse = true,
  ) {}
  push(x: T, role: RingRole = 'item'): void {
    if (this.max <= 0) return;
    const last = this.items.at(-1);
    if (this.collapse && role === 'header' && last?.role === 'header') this.items.pop();
    if (this.collapse && role === 'footer' && last?.role === 'header') {
      this.items.pop(); // a session with nothing to show
      return;
    }
    this.items.push({ x, role });
    if (this.items.length > this.max * 3 + 16) this.trim();
  }
  clear(): void {
    this.items = [];
  }
  /** Whether `max` records are held (more history would not change what is shown). */
  full(): boolean {
    let n = 0;
    for (const i of this.items) if (i.role === 'item' && ++n >= this.max) return true;
    return false;
  }
  take(): T[] {
    this.trim();
    const out = this.items.map((i) => i.x);
    this.clear();
    return out;
  }
  private trim(): void {
    let start = this.items.length;
    let n = 0;
    while (start > 0 && n < this.max) {
      start--;
      if (this.items[start]!.role === 'item') n++;
    }
    if (n === 0 && this.collapse) start = this.items.length; // separators only: nothing to show
    if (start > 0 && this.items[start - 1]!.role === 'header') start--;
    if (start > 0) this.items = this.items.slice(start);
    else if (n === 0 && this.collapse) this.items = [];
  }
}

/** The ring role of a record: session start and end are separators. */
export function roleOf(r: LogRecord): RingRole {
  if (r.kind === 'event' && r.event === 'start') return 'header';
  if (r.kind === 'event' && r.event === 'end') return 'footer';
  return 'item';
}

/** Which sessions to show: the last one to appear in the file, all of them, or one by id. */
export type SessionChoice = { kind: 'last' } | { kind: 'all' } | { kind: 'id'; id: string };

/**
 * Follow mode: while catching up with what the file already holds, keeps the last `history` outputs of
 * the chosen session (for 'last': the session that appeared last — a new session replaces the history);
 * once caught up, every output of the chosen sessions passes straight through (for 'last' that includes
 * sessions that start later).
 */
export class FollowSelector {
  private readonly ring: Ring<() => string>;
  private current: string | null = null;
  private readonly seen = new Set<string>();
  private readonly startSeen = new Set<string>();
  private live = false;

  constructor(
    private readonly choice: SessionChoice,
    history: number,
    /** JSON output: no separators, every record counts. */
    private readonly json = false,
    /** Filters are active: sessions with nothing to show leave no separators. */
    collapse = true,
  ) {
    this.ring = new Ring(history, collapse);
  }

  /** Feeds one record and its prepared output (TailFormatter.prepare); returns what to print now. */
  add(r: LogRecord, later: (() => string) | null): string | null {
    const session = r.session;
    if (!this.live) {
      if (this.choice.kind === 'last' && !this.seen.has(session)) {
        this.seen.add(session);
        this.current = session;
        this.ring.clear();
      }
      if (later !== null && this.wants(session)) this.ring.push(later, this.json ? 'item' : roleOf(r));
      if (r.seq === 1 && this.choice.kind === 'last') this.startSeen.add(session);
      return null;
    }
    if (later === null) return null;
    if (this.choice.kind === 'id' && session !== this.choice.id) return null;
    return later();
  }

  /** The history holds all it can show: `history` records, or every record of the chosen session since its start. */
  historyComplete(): boolean {
    return this.ring.full() || (this.current !== null && this.startSeen.has(this.current));
  }

  /** The end of the existing file was reached: the history to print, and from now on records pass through. */
  caughtUp(): string[] {
    this.live = true;
    this.seen.clear();
    return this.ring.take().map((later) => later());
  }

  private wants(session: string): boolean {
    switch (this.choice.kind) {
      case 'all':
        return true;
      case 'last':
        return session === this.current;
      case 'id':
        return session === this.choice.id;
    }
  }
}

/**
 * Streaming counterpart of Ring's separator rule: a session's header is held back until one of its
 * records is shown, and a session none of whose records was shown prints neither header nor footer.
 */
export class SeparatorGate {
  private readonly pending = new Map<string, string>();
  constructor(private readonly maxPending = 1000) {}

  /** Text to print now for this record's output (possibly with its session's header in front), or null. */
  pass(r: LogRecord, text: string): string | null {
    const role = roleOf(r);
    const key = r.session;
    if (role === 'header') {
      this.pending.set(key, text);
      if (this.pending.size > this.maxPending) {
        const oldest = this.pending.keys().next().value;
        if (oldest !== undefined) this.pending.delete(oldest);
      }
      return null;
    }
    const header = this.pending.get(key);
    if (role === 'footer') {
      if (header !== undefined) {
        this.pending.delete(key);
        return null;
      }
      return text;
    }
    if (header !== undefined) {
      this.pending.delete(key);
      return header + text;
    }
    return text;
  }
}
