/**
 * The analysis of a stdio run: chunks in (copies of what was relayed, stamped with their arrival time, in
 * relay order), records out to the sink and the sinks beside it. It runs on the relay's thread after its
 * turn (inline-observer.ts) or in the analysis worker (analysis-loop.ts). Everything here is guarded: an
 * exception in analysis or logging is reported once on stderr and the line still gets a minimal record.
 */
import { LineSplitter, type Line, type ShortenerFactory } from '../framing/line-splitter.js';
import type { Output } from '../session/output.js';
import { Session } from '../session/session.js';
import { serializeHead, serializeRecord } from '../log/serialize.js';
import type { EventName, LogRecord } from '../log/record.js';
import type { RecordTap, TappedRecord } from '../log/record-tap.js';

/** Characters of a line kept in the gap record of a line whose analysis failed. */
const GAP_RAW_CHARS = 4096;

/** Where serialized records go (the log file); counts what it could not keep. */
export interface RecordSink {
  /** A serialized record; or, with `body`, a record head to which `body` and `}\n` are appended. */
  write(text: string, body?: Buffer): boolean;
  /** A record whose message is `body`, its exact JSON bytes (the file sink encodes it without strings). */
  writeRecord?(record: LogRecord, body: Buffer): boolean;
  takeLoss(): { lost: number; reason: string } | null;
  close(): Promise<void> | void;
  /** The exact line of the record just written, if the sink kept it (sinks beside the log reuse it); valid only during the call. */
  lastLine?(): Buffer | undefined;
  /** Takes back the record just written, before anything else is written (a sink in front writes it another way). */
  takeBackLast?(): void;
  /** Before the end record: losses a write in flight or a removed file would reveal are counted by then (at most `maxWaitMs`). */
  settle?(maxWaitMs: number): Promise<void>;
}

export interface ObserverOptions {
  sessionId: string;
  maxLogBytes: number;
  sink: RecordSink;
  warn: (message: string) => void;
  shortener?: ShortenerFactory;
  now?: () => number;
  /** Sinks beside the log (OTLP, pino transports): every record, in order; losses become sink-gap records. */
  taps?: readonly RecordTap[];
}

/** How long sinks beside the log may take to deliver, before and again after the end record. */
const TAP_FLUSH_MS = 1000;
/** Losses of sinks beside the log become a sink-gap record at most this often (and at the end). */
const TAP_REPORT_MS = 1000;

/** This thread's time origin: read once (the getter costs about what performance.now() does, per chunk). */
const TIME_ORIGIN = performance.timeOrigin;

/** Precise epoch milliseconds (fractional) for record times and latencies. */
export const preciseNow = (): number => Math.round((TIME_ORIGIN + performance.now()) * 1000) / 1000;

/** The three streams the relay copies. */
export type Stream = 'client' | 'server' | 'stderr';

/** Feeds both directions and the server's stderr through splitters into one Session. */
export class Observer {
  private readonly session: Session;
  private readonly client: LineSplitter;
  private readonly server: LineSplitter;
  private readonly stderr: LineSplitter;
  private readonly now: () => number;
  private chunkTime = 0;
  private failed = false;
  /** The sinks beside the log (none: the per-record work for them is skipped). */
  private readonly taps: readonly RecordTap[];

  constructor(private readonly opts: ObserverOptions) {
    this.now = opts.now ?? preciseNow;
    this.taps = opts.taps ?? [];
    this.session = new Session({ id: opts.sessionId, maxLogBytes: opts.maxLogBytes }, (o) => this.emit(o));
    const mk = (fn: (line: Line) => void) => new LineSplitter(opts.maxLogBytes, fn, opts.shortener);
    this.client = mk((line) => this.line('client', line));
    this.server = mk((line) => this.line('server', line));
    this.stderr = mk((line) => this.line('stderr', line));
  }

  /** A chunk of one stream, stamped with the time the relay read it. */
  take(which: Stream, chunk: Buffer, time: number): void {
    this.feed(this.splitterOf(which), chunk, time);
  }

  /**
   * Relayed bytes of one stream that the analysis never saw (it fell too far behind): `lines` line ends
   * were among them. The line in progress is cut off, the stream resumes at a line start, and a gap
   * record counts the lines lost (one more when the lost bytes ended inside a line; a line cut by an
   * earlier loss is not counted again when its end is lost too).
   */
  lost(which: Stream, loss: { bytes: number; lines: number; endsLine: boolean }, time: number): void {
    const lost = this.splitterOf(which).skip(loss.endsLine, loss.lines);
    this.call(() => this.session.onEvent('gap', { lost, reason: 'analysis-behind', stream: which, bytes: loss.bytes }, time));
  }

  private splitterOf(which: Stream): LineSplitter {
    return which === 'client' ? this.client : which === 'server' ? this.server : this.stderr;
  }

  /** Flushes a torn last line of one direction when its stream ends. */
  endOf(which: Stream, time = this.now()): void {
    this.chunkTime = time;
    const splitter = this.splitterOf(which);
    try {
      splitter.end();
    } catch (err) {
      this.fail(err);
    }
  }

  /** One of mcp-tap's own events, at `time` (now unless the relay stamped it). */
  event(name: EventName, fields: Record<string, unknown> = {}, time = this.now()): void {
    this.call(() => this.session.onEvent(name, fields, time));
  }

  /** Ends the session: torn lines, then the end record with what is pending; flushes and closes the sink. */
  async finish(fields: Record<string, unknown> = {}, maxWaitMs = 5000): Promise<void> {
    this.endOf('client');
    this.endOf('server');
    this.endOf('stderr');
    // sinks beside the log deliver what waits first, so their losses can still be counted in the log
    const taps = this.taps;
    if (taps.length > 0) await Promise.all(taps.map((t) => t.flush(TAP_FLUSH_MS).catch(() => {})));
    // losses are reported before the end record, which must stay the last one: the log's own first, once
    // its last write is done and its path checked (a file removed late loses records it must count)
    const sink = this.opts.sink;
    if (sink.settle !== undefined) await sink.settle(TAP_FLUSH_MS);
    this.reportLoss(true);
    try {
      this.session.finish(this.now(), fields);
    } catch (err) {
      this.fail(err);
    }
    let timer: NodeJS.Timeout | undefined;
    const closing = taps.map((t) => t.close(TAP_FLUSH_MS).catch(() => {}));
    await Promise.race([
      Promise.all([Promise.resolve(this.opts.sink.close()), ...closing]),
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.opts.warn(`the log did not finish writing within ${maxWaitMs} ms; the last records may be missing`);
          resolve();
        }, maxWaitMs);
      }),
    ]);
    clearTimeout(timer);
  }

  private feed(splitter: LineSplitter, chunk: Buffer, time: number): void {
    this.chunkTime = time;
    try {
      splitter.push(chunk);
    } catch (err) {
      this.fail(err);
    }
  }

  /** One line to the session (no closure per line: this runs for every message). */
  private line(which: Stream, line: Line): void {
    try {
      if (which === 'stderr') this.session.onStderr(line, this.chunkTime);
      else this.session.onLine(which, line, this.chunkTime);
    } catch (err) {
      this.fail(err);
      // the line still gets a record
      const text = (line.data ?? line.head ?? Buffer.alloc(0)).toString('utf8');
      // a cut raw says so: readers know it is a head, and the masking treats a secret's start at its end as the secret
      const cut = text.length > GAP_RAW_CHARS || line.data === undefined;
      const raw = text.length > GAP_RAW_CHARS ? text.slice(0, GAP_RAW_CHARS) : text;
      this.call(() =>
        this.session.onEvent('gap', { lost: 0, reason: 'analysis-error', error: String(err), raw, bytes: line.bytes, ...(cut ? { truncated: true } : {}) }, this.chunkTime),
      );
    }
    this.reportLoss();
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.fail(err);
    }
    this.reportLoss();
  }

  private emit(o: Output): void {
    writeOutput(this.opts.sink, o);
    const taps = this.taps;
    if (taps.length > 0) {
      // the line the log sink encoded, so a tap that ships lines does not serialize the record again
      const tapped = o as TappedRecord;
      tapped.line = this.opts.sink.lastLine?.();
      for (const tap of taps) {
        try {
          tap.record(tapped);
        } catch (err) {
          this.fail(err);
        }
      }
      tapped.line = undefined;
    }
  }

  private nextTapReport = 0;

  private reportLoss(force = false): void {
    const loss = this.opts.sink.takeLoss();
    if (loss) {
      try {
        this.session.onEvent('gap', { lost: loss.lost, reason: loss.reason }, this.now());
      } catch (err) {
        this.fail(err);
      }
    }
    // a sink beside the log that keeps failing is reported at most once a second (each report is a record)
    const taps = this.taps;
    if (taps.length > 0 && (force || performance.now() >= this.nextTapReport)) {
      this.nextTapReport = performance.now() + TAP_REPORT_MS;
      for (const tap of taps) this.reportTapLoss(tap);
    }
  }

  /** A sink beside the log lost records or spans: the log says so (the log itself lost nothing). */
  private reportTapLoss(tap: RecordTap): void {
    try {
      const loss = tap.takeLoss();
      if (loss) this.session.onEvent('sink-gap', { sink: tap.name, lost: loss.lost, reason: loss.reason }, this.now());
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.opts.warn(`analysis error (${err instanceof Error ? err.message : String(err)}); the relay goes on`);
  }
}

/** One analysis output to the sink: verbatim message bytes when there are some; never throws for a message JSON cannot take. */
export function writeOutput(sink: RecordSink, o: Output): void {
  let text: string;
  try {
    if (o.msgBytes !== undefined) {
      if (sink.writeRecord !== undefined) sink.writeRecord(o.record, o.msgBytes);
      else sink.write(serializeHead(o.record), o.msgBytes);
      return;
    }
    text = serializeRecord(o.record, o.msgText);
  } catch (err) {
    // a message JSON.stringify cannot take (nested beyond the stack): the record keeps its seq, without it
    const { msg: _msg, items: _items, ...rest } = o.record;
    const note = { code: 'analysis-error', text: `the message could not be serialized (${err instanceof Error ? err.message : String(err)}); logged without msg` };
    text = serializeRecord({ ...rest, notes: [...(rest.notes ?? []), note] });
  }
  sink.write(text);
}
