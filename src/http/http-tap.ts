/**
 * The analysis of one MCP session seen over HTTP: the same Session as stdio mode, fed whole messages (a
 * POST body, a JSON response, one SSE event's data) instead of lines, each record carrying an `http`
 * member with the transport facts. Guarded like the stdio Observer: an analysis error is reported once
 * and never reaches the relay.
 */
import type { Line, ShortenerFactory } from '../framing/line-splitter.js';
import type { Output } from '../session/output.js';
import { Session } from '../session/session.js';
import { BoundedMap } from '../session/bounded-map.js';
import { writeOutput, preciseNow, type RecordSink } from '../proxy/observer.js';
import type { EventName } from '../log/record.js';
import type { RecordTap, TappedRecord } from '../log/record-tap.js';
import type { RoutingHeaders } from '../protocol/routing-headers.js';

/** The `http` member of a record: which exchange carried the message. */
export interface HttpFacts {
  method: string;
  /** The request path without its query (a legacy endpoint's query holds its session id). */
  path: string;
  status?: number;
  /** Mcp-Session-Id, masked (see mask.ts). */
  sessionId?: string;
  /** The SSE event's id; on a resuming GET, the Last-Event-ID it sent. */
  eventId?: string;
  stream?: 'post' | 'get';
  /** The exchange's number in the run: its `exchange` record and every message it carried share it. */
  x?: number;
  /** The request's W3C `traceparent` header (client messages), so spans join the caller's trace. */
  traceparent?: string;
}

/** The sinks beside the log, shared by every session of the run; their losses are reported at most once a second. */
export interface SharedTaps {
  taps: readonly RecordTap[];
  nextReport: number;
}

/** One session's identity, limits and the shared sink. */
export interface HttpTapOptions {
  id: string;
  maxLogBytes: number;
  sink: RecordSink;
  warn: (message: string) => void;
  shortener?: ShortenerFactory;
  now?: () => number;
  /** Sinks beside the log (OTLP, pino transports): every record of every session, in order. */
  taps?: SharedTaps;
}

/** Losses of sinks beside the log become a sink-gap record at most this often (and at a session's end). */
const TAP_REPORT_MS = 1000;

/** SSE event ids remembered per session for linking a resumption to the event it resumes after. */
const MAX_EVENT_IDS = 4096;

/** One MCP session's records: messages with their `http` facts, and HTTP events. */
export class HttpTap {
  private readonly session: Session;
  private readonly now: () => number;
  private facts: HttpFacts | undefined;
  private lastSeq = 0;
  private failed = false;
  private finished = false;
  private readonly eventSeqs = new BoundedMap<string, number>(MAX_EVENT_IDS);
  private readonly steps: Array<(done: () => void) => void> = [];
  private running = false;
  private notDecoded = 0;

  constructor(private readonly opts: HttpTapOptions) {
    this.now = opts.now ?? preciseNow;
    this.session = new Session({ id: opts.id, maxLogBytes: opts.maxLogBytes }, (o) => this.emit(o));
  }

  get id(): string {
    return this.opts.id;
  }

  get ended(): boolean {
    return this.finished;
  }

  /**
   * Runs observation steps in arrival order. A step that waits (a decoder working on a compressed body)
   * holds back the steps after it, so a request decoded late is still logged before the answer that
   * came after it. Steps that need no wait run at once.
   */
  step(fn: (done: () => void) => void): void {
    this.steps.push(fn);
    // after the event loop has relayed what is ready (setImmediate runs after the poll phase): the
    // analysis never sits between a chunk and its delivery, nor between a body's end and the next hop
    if (!this.running && !this.scheduled) {
      this.scheduled = true;
      setImmediate(this.onImmediate);
    }
  }

  private scheduled = false;
  private readonly onImmediate = (): void => {
    this.scheduled = false;
    if (!this.running) this.runSteps();
  };

  private runSteps(): void {
    this.running = true;
    while (this.steps.length > 0) {
      const fn = this.steps.shift()!;
      let sync = true;
      let finished = false;
      const done = () => {
        if (finished) return;
        finished = true;
        if (!sync) this.runSteps();
      };
      try {
        fn(done);
      } catch (err) {
        this.fail(err);
        finished = true;
      }
      sync = false;
      if (!finished) return; // resumed by done()
    }
    this.running = false;
  }

  /** Ends the session once the steps before it have run; resolves when its end record is written. */
  finishInOrder(fields: Record<string, unknown> = {}): Promise<void> {
    return new Promise((resolve) =>
      this.step((done) => {
        this.finish(fields);
        done();
        resolve();
      }),
    );
  }

  /** One whole message (or batch) from the host or the server; `routing`: a POST's routing headers, checked against the body. */
  message(from: 'client' | 'server', line: Line, facts: HttpFacts, time = this.now(), routing?: RoutingHeaders): void {
    if (this.finished) return;
    this.facts = facts;
    try {
      if (routing !== undefined && from === 'client') this.session.onRoutedLine(line, time, routing);
      else this.session.onLine(from, line, time);
    } catch (err) {
      this.fail(err);
    } finally {
      this.facts = undefined;
    }
    if (facts.eventId !== undefined && from === 'server') this.eventSeqs.set(facts.eventId, this.lastSeq);
    this.reportLoss();
  }

  /** Now, by the session's clock: arrival times are taken when bytes arrive, before any wait. */
  clock(): number {
    return this.now();
  }

  /** An SSE event without data (a priming event): resuming after it resumes after the last record so far. */
  markEvent(eventId: string | undefined): void {
    if (eventId !== undefined && this.lastSeq > 0) this.eventSeqs.set(eventId, this.lastSeq);
  }

  /** The seq of the record that carried SSE event `eventId`, when it is still remembered. */
  seqOfEvent(eventId: string): number | undefined {
    return this.eventSeqs.get(eventId);
  }

  /** One of mcp-tap's own events in this session. */
  event(name: EventName, fields: Record<string, unknown> = {}, time = this.now()): void {
    if (this.finished) return;
    try {
      this.session.onEvent(name, fields, time);
    } catch (err) {
      this.fail(err);
    }
    this.reportLoss();
  }

  /** An exchange is over: its `exchange` record; one whose body was (in part) not decoded is counted for the end record. */
  exchangeDone(fields: Record<string, unknown>, notDecoded: boolean, time: number): void {
    if (this.finished) return;
    if (notDecoded) this.notDecoded++;
    this.event('exchange', fields, time);
  }

  /** The session's end record (pending requests, counts); later observations are ignored. */
  finish(fields: Record<string, unknown> = {}): void {
    if (this.finished) return;
    this.reportLoss(true);
    if (this.notDecoded > 0) fields = { ...fields, notDecoded: this.notDecoded };
    try {
      this.session.finish(this.now(), fields);
    } catch (err) {
      this.fail(err);
    }
    this.finished = true;
  }

  private emit(o: Output): void {
    this.lastSeq = o.record.seq;
    if (this.facts !== undefined && o.record.kind !== 'event') o.record['http'] = this.facts;
    writeOutput(this.opts.sink, o);
    const shared = this.opts.taps;
    if (shared !== undefined && shared.taps.length > 0) {
      // as the stdio observer does: the line the log sink encoded, valid only during the call
      const tapped = o as TappedRecord;
      tapped.line = this.opts.sink.lastLine?.();
      for (const tap of shared.taps) {
        try {
          tap.record(tapped);
        } catch (err) {
          this.fail(err);
        }
      }
      tapped.line = undefined;
    }
  }

  private reportLoss(force = false): void {
    const loss = this.opts.sink.takeLoss();
    if (loss) {
      try {
        this.session.onEvent('gap', { lost: loss.lost, reason: loss.reason }, this.now());
      } catch (err) {
        this.fail(err);
      }
    }
    const shared = this.opts.taps;
    if (shared === undefined || shared.taps.length === 0 || (!force && performance.now() < shared.nextReport)) return;
    shared.nextReport = performance.now() + TAP_REPORT_MS;
    for (const tap of shared.taps) {
      try {
        const lost = tap.takeLoss();
        if (lost) this.session.onEvent('sink-gap', { sink: tap.name, lost: lost.lost, reason: lost.reason }, this.now());
      } catch (err) {
        this.fail(err);
      }
    }
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.opts.warn(`analysis error (${err instanceof Error ? err.message : String(err)}); the relay goes on`);
  }
}
