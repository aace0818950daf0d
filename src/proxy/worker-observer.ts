/**
 * The relay thread's side of the analysis: what the relay observes goes into the shared ring, stamped
 * with its arrival time, and the analysis worker does the rest. Per chunk that is one copy and a few
 * stores, never a wait or a system call while the worker is awake. What the ring has no room for is
 * held; only when the analysis is PACE_BYTES behind (a flood no host sends) are the protocol streams'
 * sources held until it caught up half of it, while a flood of stderr is dropped and counted instead.
 * When the worker reads nothing for STUCK_MS meanwhile, or fails, the relay goes on without it and
 * stderr says so; the log states each gap at its place. When the worker cannot start, the same analysis
 * runs on this thread.
 */
import { Worker } from 'node:worker_threads';
import type { Writable } from 'node:stream';
import { createRing, Kind, type StreamKind } from './ring.js';
import { RingWriter } from './ring-writer.js';
import type { AnalysisData, AnalysisMessage, FinishRequest } from './analysis-loop.js';
import type { AnalysisOptions } from './open-analysis.js';
import type { EventName } from '../log/record.js';
import { preciseNow, type Stream } from './observer.js';

/** What the relay thread observes, whichever thread analyses it. */
export interface RelayObserver {
  fromClient(chunk: Buffer): void;
  fromServer(chunk: Buffer): void;
  fromStderr(chunk: Buffer): void;
  endOf(which: Stream): void;
  event(name: EventName, fields?: Record<string, unknown>): void;
  /** Ends the session and the log within about `maxWaitMs`; resolves with the log's queue left then, if known. */
  finish(fields?: Record<string, unknown>, maxWaitMs?: number): Promise<{ records: number; bytes: number } | null>;
}

export interface WorkerObserverOptions {
  /** dist/analysis-worker.js. */
  workerPath: string;
  warn: (message: string) => void;
  /** Where the worker's stdout goes, if anything ever writes there: never the host's stdout. */
  stderr: Writable;
  /** Ring data bytes (default 4 MiB). */
  ringBytes?: number;
  /** Relayed bytes held for the ring before the protocol streams are paced and stderr dropped (default 4 MiB). */
  paceBytes?: number;
  /** Called with each chunk's size (the relay's scavenger, young-generation.ts). */
  scavenge?: (bytes: number) => void;
}

/** The analysis read nothing for this long while the relay was paced: it is stuck. */
const STUCK_MS = 1000;
/** How often the relay looks whether the analysis still makes progress. */
const WATCH_MS = 250;

const STREAM_KIND: Record<Stream, StreamKind> = { client: Kind.Client, server: Kind.Server, stderr: Kind.Stderr };

/** Feeds the analysis worker through the ring; see the file comment. */
export class WorkerObserver implements RelayObserver {
  private readonly ring: RingWriter;
  private readonly data: AnalysisData;
  private worker: Worker | null = null;
  private gone = false;
  private finished: ((queue: { records: number; bytes: number } | null) => void) | null = null;
  private readonly done: Promise<{ records: number; bytes: number } | null>;
  /** Holds (true) or releases the protocol streams' sources; set by the relay once its pumps exist. */
  pressure: (on: boolean) => void = () => {};
  private watch: NodeJS.Timeout | null = null;
  /** Frees the relayed chunks' memory now and then (young-generation.ts). */
  private readonly scavenge: (bytes: number) => void;
  /** The analysis runs on this thread (the worker did not start). */
  private here = false;

  constructor(
    analysis: AnalysisOptions,
    private readonly opts: WorkerObserverOptions,
  ) {
    const sab = createRing(opts.ringBytes ?? 4 * 1024 * 1024);
    this.data = { ...analysis, ring: sab };
    this.ring = new RingWriter(sab, {
      paceBytes: opts.paceBytes ?? 4 * 1024 * 1024,
      onPace: (on) => this.pace(on),
      onBehind: (held) => opts.warn(`the analysis is ${(held / (1024 * 1024)).toFixed(1)} MiB behind the relay; what it cannot take is dropped and counted in the log`),
    });
    this.scavenge = opts.scavenge ?? (() => {});
    this.done = new Promise((resolve) => (this.finished = resolve));
    this.start();
  }

  fromClient(chunk: Buffer): void {
    if (!this.gone) this.ring.chunk(Kind.Client, chunk, preciseNow());
    this.scavenge(chunk.length);
  }

  fromServer(chunk: Buffer): void {
    if (!this.gone) this.ring.chunk(Kind.Server, chunk, preciseNow());
    this.scavenge(chunk.length);
  }

  fromStderr(chunk: Buffer): void {
    if (!this.gone) this.ring.chunk(Kind.Stderr, chunk, preciseNow());
    this.scavenge(chunk.length);
  }

  endOf(which: Stream): void {
    this.ring.control(Kind.End, Buffer.from([STREAM_KIND[which]]), preciseNow());
  }

  event(name: EventName, fields: Record<string, unknown> = {}): void {
    this.ring.control(Kind.Event, Buffer.from(JSON.stringify({ name, fields })), preciseNow());
  }

  /** Relayed bytes and messages dropped because the analysis was stuck (the log states each gap). */
  dropped(): { bytes: number; lines: number } {
    return { bytes: this.ring.droppedBytes, lines: this.ring.droppedLines };
  }

  /** Chunks and events waiting for room in the ring. */
  waiting(): number {
    return this.ring.waiting;
  }

  /**
   * Ends the session once the analysis has taken everything before it. The analysis bounds its own wait
   * for the disk and the sinks (`maxWaitMs`); this bounds an analysis that stops making progress.
   */
  async finish(fields: Record<string, unknown> = {}, maxWaitMs = 5000): Promise<{ records: number; bytes: number } | null> {
    const request: FinishRequest = { fields, maxWaitMs };
    this.ring.control(Kind.Finish, Buffer.from(JSON.stringify(request)), preciseNow());
    this.stopWatch();
    if (this.gone) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = this.whileStill((still) => {
        if (still < maxWaitMs + 2000) return;
        this.opts.warn(`the log did not finish writing within ${maxWaitMs} ms; the last records may be missing`);
        resolve(null);
      });
    });
    const queue = await Promise.race([this.done, late]);
    clearInterval(timer);
    void this.worker?.terminate();
    return queue;
  }

  /** Paced: hold the protocol streams' sources, and watch that the analysis still reads. */
  private pace(on: boolean): void {
    this.pressure(on);
    if (!on) return this.stopWatch();
    if (this.watch !== null || this.gone) return;
    this.watch = this.whileStill((still) => {
      if (still < STUCK_MS) return;
      this.opts.warn(`the analysis has read nothing for ${STUCK_MS} ms; the relay goes on without waiting for it`);
      this.ring.stuck();
    });
    this.watch.unref();
  }

  /** Every WATCH_MS, tells `check` how long the analysis has read nothing from the ring (0 when it did). */
  private whileStill(check: (stillMs: number) => void): NodeJS.Timeout {
    let at = this.ring.readOffset();
    let still = 0;
    return setInterval(() => {
      const now = this.ring.readOffset();
      still = now === at ? still + WATCH_MS : 0;
      at = now;
      check(still);
    }, WATCH_MS);
  }

  private stopWatch(): void {
    if (this.watch !== null) clearInterval(this.watch);
    this.watch = null;
  }

  private start(): void {
    let ready = false;
    let worker: Worker;
    try {
      // trackUnmanagedFds off: the log's descriptor is opened here and closed there, which is fine
      worker = new Worker(this.opts.workerPath, { workerData: this.data, stdout: true, trackUnmanagedFds: false });
    } catch (err) {
      this.runHere(err);
      return;
    }
    this.worker = worker;
    worker.unref();
    worker.stdout.on('data', (d: Buffer) => this.opts.stderr.write(d));
    worker.on('message', (m: AnalysisMessage) => {
      if (m.type === 'ready') ready = true;
      else this.onMessage(m);
    });
    worker.on('error', (err) => {
      if (!ready) return this.runHere(err);
      this.stop(`the analysis failed (${err.message}); the relay goes on without a log`);
    });
    worker.on('exit', (code) => {
      if (!ready) this.runHere(new Error(`it exited with code ${code}`));
      else this.stop('the analysis ended early; the relay goes on without a log');
    });
  }

  /** The worker could not start: the same analysis runs on this thread, from the same ring. */
  private runHere(err: unknown): void {
    if (this.worker === null && this.here) return;
    this.here = true;
    this.worker = null;
    this.opts.warn(`the analysis worker did not start (${err instanceof Error ? err.message : String(err)}); analysing on the relay's thread`);
    void import('./analysis-loop.js')
      .then(({ runAnalysis }) => runAnalysis(this.data, (m) => this.onMessage(m)))
      .catch((e: unknown) => this.stop(`the analysis failed (${e instanceof Error ? e.message : String(e)}); the relay goes on without a log`));
  }

  private onMessage(m: AnalysisMessage): void {
    if (m.type === 'ready') return;
    if (m.type === 'warn') this.opts.warn(m.message);
    else if (m.type === 'room') this.ring.retry();
    else if (m.type === 'finished') {
      this.gone = true;
      this.finished?.(m.logQueue);
    }
  }

  private stop(message: string): void {
    if (this.gone) return;
    this.gone = true;
    this.stopWatch();
    if (this.ring.paced) this.ring.stuck();
    this.opts.warn(message);
    this.finished?.(null);
  }
}
