/**
 * The analysis side of the relay: chunks in (copies of what was relayed), records out to the sink.
 * Everything here is guarded: an exception in analysis or logging is reported once on stderr and the
 * line still gets a minimal record; the relay never sees it.
 */
import { LineSplitter, type Line, type ShortenerFactory } from '../framing/line-splitter.js';
import type { Output } from '../session/output.js';
import { Session } from '../session/session.js';
import { serializeHead, serializeRecord } from '../log/serialize.js';
import type { EventName, LogRecord } from '../log/record.js';
import type { RecordTap, TappedRecord } from '../log/record-tap.js';

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

/** Analysis runs in slices of about this long between turns of the event loop (the relay's turns). */
const SLICE_MS = 0.2;
/** Chunks are analysed in pieces of about this size, cut at line ends. */
const SLICE_BYTES = 16 * 1024;
/** Relayed bytes that may wait for the analysis; past this it catches up before the relay reads on. */
const MAX_WAITING_BYTES = 1024 * 1024;
/** How long sinks beside the log may take to deliver, before and again after the end record. */
const TAP_FLUSH_MS = 1000;
/** Losses of sinks beside the log become a sink-gap record at most this often (and at the end). */
const TAP_REPORT_MS = 1000;

/** Precise epoch milliseconds (fractional) for record times and latencies. */
export const preciseNow = (): number => Math.round((performance.timeOrigin + performance.now()) * 1000) / 1000;

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

  constructor(private readonly opts: ObserverOptions) {
    this.now = opts.now ?? preciseNow;
    this.session = new Session({ id: opts.sessionId, maxLogBytes: opts.maxLogBytes }, (o) => this.emit(o));
    const mk = (fn: (line: Line) => void) => new LineSplitter(opts.maxLogBytes, fn, opts.shortener);
    this.client = mk((line) => this.line('client', line));
    this.server = mk((line) => this.line('server', line));
    this.stderr = mk((line) => this.line('stderr', line));
  }

  /** Bytes the host wrote to the server. */
  fromClient(chunk: Buffer): void {
    this.enqueue(this.client, chunk);
  }

  /** Bytes the server wrote to its stdout. */
  fromServer(chunk: Buffer): void {
    this.enqueue(this.server, chunk);
  }

  /** Bytes the server wrote to its stderr. */
  fromStderr(chunk: Buffer): void {
    this.enqueue(this.stderr, chunk);
  }

  /**
   * A chunk analysed now, stamped with the time the relay read it: the analysis worker's way in, where
   * nothing waits for a turn of the relay.
   */
  take(which: Stream, chunk: Buffer, time: number): void {
    this.drain();
    this.feed(this.splitterOf(which), chunk, time);
  }

  /**
   * Relayed bytes of one stream that the analysis never saw (it fell too far behind): `lines` line ends
   * were among them. The line in progress is cut off, the stream resumes at a line start, and a gap
   * record counts the lines lost (one more when the lost bytes ended inside a line).
   */
  lost(which: Stream, loss: { bytes: number; lines: number; endsLine: boolean }, time: number): void {
    this.drain();
    this.splitterOf(which).skip(loss.endsLine);
    const lost = loss.lines + (loss.endsLine ? 0 : 1);
    this.call(() => this.session.onEvent('gap', { lost, reason: 'analysis-behind', stream: which, bytes: loss.bytes }, time));
  }

  private splitterOf(which: Stream): LineSplitter {
    return which === 'client' ? this.client : which === 'server' ? this.server : this.stderr;
  }

  /**
   * Chunks wait for the analysis until the event loop has relayed everything that is ready (setImmediate
   * runs after the poll phase), and the analysis runs in slices of ~0.2 ms (big chunks cut at line ends),
   * so an answer that arrives meanwhile is relayed within a slice, not after a whole 64 KiB chunk of
   * analysis. Memory stays bounded: past 64 KiB waiting a slice runs on, past 1 MiB the analysis catches up
   * at once. Order and arrival times are kept; every other call analyses what waits first.
   */
  private readonly waiting: Array<{ splitter: LineSplitter; chunk: Buffer; time: number }> = [];
  private scheduled = false;
  private waitingBytes = 0;

  private enqueue(splitter: LineSplitter, chunk: Buffer): void {
    const time = this.now();
    // big chunks in slices ending at a line end, so the relay gets a turn between them
    let start = 0;
    while (chunk.length - start > SLICE_BYTES) {
      const nl = chunk.lastIndexOf(0x0a, start + SLICE_BYTES - 1);
      if (nl < start) break;
      this.waiting.push({ splitter, chunk: chunk.subarray(start, nl + 1), time });
      start = nl + 1;
    }
    this.waiting.push({ splitter, chunk: start === 0 ? chunk : chunk.subarray(start), time });
    this.waitingBytes += chunk.length;
    // memory stays bounded when the analysis cannot keep up: then it runs at once, before the next read
    if (this.waitingBytes > MAX_WAITING_BYTES) this.drain();
    else this.schedule();
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.onImmediate);
    }
  }

  /** A slice of analysis, then the event loop relays what has arrived; the rest waits for the next turn. */
  private readonly onImmediate = (): void => {
    this.scheduled = false;
    this.analyseWaiting(performance.now() + SLICE_MS);
    if (this.waiting.length > 0) this.schedule();
  };

  /** Analyses all the chunks that wait, in arrival order (before anything that must come after them). */
  private drain(): void {
    if (this.waiting.length > 0) this.analyseWaiting(Infinity);
  }

  /**
   * Analyses waiting chunks in arrival order until `until` (performance.now() time) has passed, but never
   * leaves more than a few slices waiting. Each chunk is taken off the list before its analysis.
   */
  private analyseWaiting(until: number): void {
    const w = this.waiting;
    while (w.length > 0) {
      const { splitter, chunk, time } = w.shift()!;
      this.waitingBytes -= chunk.length;
      this.feed(splitter, chunk, time);
      if (this.waitingBytes <= SLICE_BYTES * 4 && performance.now() >= until) return;
    }
  }

  /** Flushes a torn last line of one direction when its stream ends. */
  endOf(which: Stream, time = this.now()): void {
    this.drain();
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
    this.drain();
    this.call(() => this.session.onEvent(name, fields, time));
  }

  /** Ends the session: torn lines, then the end record with what is pending; flushes and closes the sink. */
  async finish(fields: Record<string, unknown> = {}, maxWaitMs = 5000): Promise<void> {
    this.endOf('client');
    this.endOf('server');
    this.endOf('stderr');
    // sinks beside the log deliver what waits first, so their losses can still be counted in the log
    const taps = this.opts.taps ?? [];
    if (taps.length > 0) await Promise.all(taps.map((t) => t.flush(TAP_FLUSH_MS).catch(() => {})));
    // losses are reported before the end record, which must stay the last one
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
      this.call(() =>
        this.session.onEvent('gap', { lost: 0, reason: 'analysis-error', error: String(err), raw: text.slice(0, 4096), bytes: line.bytes }, this.chunkTime),
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
    const taps = this.opts.taps;
    if (taps !== undefined) {
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
    const taps = this.opts.taps;
    if (taps !== undefined && (force || performance.now() >= this.nextTapReport)) {
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
