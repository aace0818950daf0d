/**
 * The analysis on the relay's own thread, for a run with nothing beside the log (no spans, no
 * transports; masked or not): there it costs the machine least — no second isolate, no bytes read again on another core —
 * and the relay thread little, because it runs after the relay's turn, batched. Chunks wait until the
 * event loop has relayed everything that is ready (setImmediate runs after the poll phase); the analysis
 * then runs in slices of ~0.2 ms cut at line ends, so an answer that arrives meanwhile is relayed within
 * a slice. Past 1 MiB waiting the protocol streams are analysed at once, before the relay reads on
 * (memory stays bounded, the log keeps every message); a flood of the server's stderr is never allowed
 * to slow the relay: past that bound its chunks are dropped and counted, and the log states the gap.
 */
import type { EventName } from '../log/record.js';
import type { FileSink } from '../log/file-sink.js';
import { preciseNow, type Observer, type Stream } from './observer.js';
import { countLineEnds } from '../framing/line-splitter.js';
import type { RelayObserver } from './worker-observer.js';

/** Analysis runs in slices of about this long between turns of the event loop (the relay's turns). */
const SLICE_MS = 0.2;
/** Chunks are analysed in pieces of about this size, cut at line ends. */
const SLICE_BYTES = 16 * 1024;
/** The slice's clock is read once this many chunks or bytes were analysed since the last reading. */
const CLOCK_CHUNKS = 4;
const CLOCK_BYTES = 4096;
/** Relayed bytes that may wait for the analysis: past it, protocol chunks are analysed at once, stderr dropped. */
const MAX_WAITING_BYTES = 1024 * 1024;

interface Waiting {
  stream: Stream;
  chunk: Buffer;
  time: number;
  /** Stderr dropped here (chunk empty): bytes, line ends, whether the last dropped byte ended a line. */
  lost?: { bytes: number; lines: number; endsLine: boolean };
}

const EMPTY = Buffer.alloc(0);

export interface InlineObserverOptions {
  /** Once per outage: the server's stderr is being dropped (the log says how much, where). */
  warn: (message: string) => void;
  /** The log's own sink, when it is a file (its queue is reported at the end). */
  logFile?: FileSink | null;
  now?: () => number;
}

/** Feeds the observer on the relay thread; see the file comment. */
export class InlineObserver implements RelayObserver {
  private readonly waiting: Waiting[] = [];
  private head = 0;
  private scheduled = false;
  private waitingBytes = 0;
  /** Of those, the protocol streams' (stderr is dropped past the bound, never caught up). */
  private protocolBytes = 0;
  private readonly now: () => number;
  /** Dropping stderr since the analysis last caught up (one warning per outage). */
  private behind = false;

  constructor(
    private readonly observer: Observer,
    private readonly opts: InlineObserverOptions,
  ) {
    this.now = opts.now ?? preciseNow;
  }

  fromClient(chunk: Buffer): void {
    this.enqueue('client', chunk);
  }

  fromServer(chunk: Buffer): void {
    this.enqueue('server', chunk);
  }

  fromStderr(chunk: Buffer): void {
    if (this.waitingBytes + chunk.length > MAX_WAITING_BYTES) return this.drop(chunk);
    this.enqueue('stderr', chunk);
  }

  endOf(which: Stream): void {
    this.drain();
    this.observer.endOf(which, this.now());
  }

  event(name: EventName, fields: Record<string, unknown> = {}): void {
    this.drain();
    this.observer.event(name, fields, this.now());
  }

  async finish(fields: Record<string, unknown> = {}, maxWaitMs = 5000): Promise<{ records: number; bytes: number } | null> {
    this.drain();
    const logQueue = this.opts.logFile?.queued() ?? null;
    await this.observer.finish(fields, maxWaitMs);
    return logQueue;
  }

  private enqueue(stream: Stream, chunk: Buffer): void {
    const time = this.now();
    // big chunks in slices ending at a line end, so the relay gets a turn between them
    let start = 0;
    while (chunk.length - start > SLICE_BYTES) {
      const nl = chunk.lastIndexOf(0x0a, start + SLICE_BYTES - 1);
      if (nl < start) break;
      this.waiting.push({ stream, chunk: chunk.subarray(start, nl + 1), time });
      start = nl + 1;
    }
    this.waiting.push({ stream, chunk: start === 0 ? chunk : chunk.subarray(start), time });
    this.waitingBytes += chunk.length;
    if (stream !== 'stderr') this.protocolBytes += chunk.length;
    // memory stays bounded when the analysis cannot keep up with the protocol: then it runs at once,
    // before the next read (stderr past the bound is dropped instead, fromStderr)
    if (this.protocolBytes > MAX_WAITING_BYTES) this.drain();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.onImmediate);
    }
  }

  /** Stderr past the bound: counted where it would have been, so the log states the gap there. */
  private drop(chunk: Buffer): void {
    const lines = countLineEnds(chunk);
    const endsLine = chunk[chunk.length - 1] === 0x0a;
    const last = this.head < this.waiting.length ? this.waiting[this.waiting.length - 1] : undefined;
    if (last?.lost !== undefined) {
      last.lost.bytes += chunk.length;
      last.lost.lines += lines;
      last.lost.endsLine = endsLine;
    } else this.waiting.push({ stream: 'stderr', chunk: EMPTY, time: this.now(), lost: { bytes: chunk.length, lines, endsLine } });
    if (!this.behind) {
      this.behind = true;
      this.opts.warn('the server writes to stderr faster than it can be analysed; the relay goes on, and the lines dropped are counted in the log');
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.onImmediate);
    }
  }

  /** A slice of analysis, then the event loop relays what has arrived; the rest waits for the next turn. */
  private readonly onImmediate = (): void => {
    this.scheduled = false;
    this.analyse(performance.now() + SLICE_MS);
    if (this.head < this.waiting.length && !this.scheduled) {
      this.scheduled = true;
      setImmediate(this.onImmediate);
    }
  };

  /** Analyses everything that waits, in arrival order (before anything that must come after it). */
  private drain(): void {
    this.analyse(Infinity);
  }

  /** Analyses waiting chunks in order until `until` (performance.now() time), never leaving more than a few slices. */
  private analyse(until: number): void {
    const w = this.waiting;
    let sinceChunks = 0;
    let sinceBytes = 0;
    while (this.head < w.length) {
      const { stream, chunk, time, lost } = w[this.head]!;
      w[this.head++] = undefined as unknown as Waiting;
      this.waitingBytes -= chunk.length;
      if (stream !== 'stderr') this.protocolBytes -= chunk.length;
      if (lost !== undefined) this.observer.lost(stream, lost, time);
      else this.observer.take(stream, chunk, time);
      // a slice ends on time once little of the protocol waits; stderr alone never extends it. The clock
      // is read after a few KiB or chunks: a read costs about what a small message's analysis step does
      sinceBytes += chunk.length;
      if (++sinceChunks < CLOCK_CHUNKS && sinceBytes < CLOCK_BYTES) continue;
      sinceChunks = 0;
      sinceBytes = 0;
      if (this.protocolBytes <= SLICE_BYTES * 4 && performance.now() >= until) break;
    }
    if (this.head === w.length) {
      w.length = 0;
      this.head = 0;
      this.behind = false;
    } else if (this.head > 1024 && this.head * 2 > w.length) {
      // a queue that never empties (a long flood) sheds what was taken
      w.splice(0, this.head);
      this.head = 0;
    }
  }
}
