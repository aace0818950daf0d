/**
 * The live span exporter: a bounded queue, batches, one request in flight, retries with backoff on
 * 429/502/503/504 and on no answer. It never blocks or throws into its caller; spans it cannot deliver
 * are counted (takeLoss, like FileSink) and the first problem gets one warning.
 */
import type { Span } from './spans.js';
import { traceRequestJson, type SpanOrigin } from './otlp-json.js';
import { encodeTraceRequest } from './otlp-proto.js';
import type { OtlpProtocol } from './otlp-config.js';
import type { Post, PostResult } from './http-post.js';
import { describeResult, encodeFor, within } from './post-body.js';

export interface ExporterOptions {
  post: Post;
  protocol: OtlpProtocol;
  origin: SpanOrigin;
  /** Where spans go, for the warning. */
  url: string;
  warn: (message: string) => void;
  /** Spans waiting at most (default 2048); more are dropped and counted. */
  maxQueue?: number;
  /** Spans per request at most (default 512). */
  maxBatch?: number;
  /** A partial batch waits this long for company (default 500 ms). */
  delayMs?: number;
  /** Attempts per batch (default 5), with backoff from `backoffMs` (default 1000) doubling to 30 s. */
  maxAttempts?: number;
  backoffMs?: number;
}

/** Why spans were not delivered, as the `sink-gap` record states it. */
export type SpanLossReason = 'queue-full' | 'export-failed' | 'rejected';

const RETRY_STATUS = new Set([429, 502, 503, 504]);

export class SpanExporter {
  private readonly queue: Span[] = [];
  private inFlight = 0;
  private sending = false;
  private timer: NodeJS.Timeout | null = null;
  /** flush() waits: retries give up at once and hand their batch back. */
  private hurry = false;
  /** Bumped when flush() gives up the request in flight (counted lost then, whatever its answer). */
  private generation = 0;
  private closed = false;
  private warned = false;
  private lost = 0;
  private lostReason: SpanLossReason | null = null;
  /** Spans delivered, for tests and the final warning. */
  delivered = 0;
  lostTotal = 0;
  private readonly maxQueue: number;
  private readonly maxBatch: number;

  constructor(private readonly opts: ExporterOptions) {
    this.maxQueue = opts.maxQueue ?? 2048;
    this.maxBatch = opts.maxBatch ?? 512;
  }

  /** Queues finished spans; what does not fit is counted, never waited for. */
  add(spans: readonly Span[]): void {
    for (const s of spans) {
      if (this.queue.length >= this.maxQueue) this.lose(1, 'queue-full', 'the receiver is not keeping up');
      else this.queue.push(s);
    }
    if (this.sending || this.hurry || this.closed) return;
    if (this.queue.length >= this.maxBatch) this.kick(0);
    else if (this.queue.length > 0 && this.timer === null) this.kick(this.opts.delayMs ?? 500);
  }

  /** Spans lost since the last call. */
  takeLoss(): { lost: number; reason: SpanLossReason } | null {
    if (this.lost === 0) return null;
    const out = { lost: this.lost, reason: this.lostReason ?? 'export-failed' };
    this.lost = 0;
    this.lostReason = null;
    return out;
  }

  /** Sends what waits, one attempt per batch, within `maxWaitMs`; what is left then is counted lost. */
  async flush(maxWaitMs: number): Promise<void> {
    this.hurry = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const deadline = Date.now() + maxWaitMs;
    // a retry loop that is waiting gives its batch back at once (hurry); a request in flight gets its answer
    while (this.sending && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    while (!this.sending && this.queue.length > 0 && Date.now() < deadline) {
      const batch = this.queue.splice(0, this.maxBatch);
      const r = await this.postWithin(batch, deadline - Date.now());
      if (r.status >= 200 && r.status < 300) this.delivered += batch.length;
      else this.lose(batch.length, r.status === 0 || RETRY_STATUS.has(r.status) ? 'export-failed' : 'rejected', describeResult(r));
    }
    // a request still unanswered is given up and counted now; its late answer counts for nothing
    const abandoned = this.sending ? this.inFlight : 0;
    if (this.sending) {
      this.generation++;
      this.inFlight = 0;
      this.sending = false; // the abandoned loop ends when its request does; a new one may start
    }
    const left = this.queue.length + abandoned;
    if (left > 0) this.lose(left, 'export-failed', `not delivered within ${maxWaitMs} ms at exit`);
    this.queue.length = 0;
    this.hurry = false;
  }

  /** The last flush: nothing is sent after it; resolves with the spans it could not deliver. */
  async close(maxWaitMs: number): Promise<number> {
    await this.flush(maxWaitMs);
    this.closed = true;
    return this.takeLoss()?.lost ?? 0;
  }

  /** Whether the one warning was given. */
  get hasWarned(): boolean {
    return this.warned;
  }

  private kick(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sendLoop();
    }, delay);
    this.timer.unref();
  }

  private async sendLoop(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    const generation = this.generation;
    try {
      while (this.queue.length > 0 && !this.hurry && generation === this.generation) {
        const batch = this.queue.splice(0, this.maxBatch);
        this.inFlight = batch.length;
        await this.sendBatch(batch);
        if (generation === this.generation) this.inFlight = 0;
      }
    } finally {
      if (generation === this.generation) {
        this.sending = false;
        this.inFlight = 0;
      }
    }
  }

  private async sendBatch(batch: Span[]): Promise<void> {
    const maxAttempts = this.opts.maxAttempts ?? 5;
    let backoff = this.opts.backoffMs ?? 1000;
    const generation = this.generation;
    for (let attempt = 1; ; attempt++) {
      const r = await this.postWithin(batch, Infinity);
      if (generation !== this.generation) return;
      if (r.status >= 200 && r.status < 300) {
        this.delivered += batch.length;
        return;
      }
      const retriable = r.status === 0 || RETRY_STATUS.has(r.status);
      if (!retriable || attempt >= maxAttempts || this.hurry) {
        if (this.hurry && retriable) {
          this.queue.unshift(...batch); // flush() gives it one more try within its deadline
          return;
        }
        this.lose(batch.length, retriable ? 'export-failed' : 'rejected', describeResult(r));
        return;
      }
      const wait = r.retryAfterMs ?? backoff * (0.75 + Math.random() / 2);
      backoff = Math.min(backoff * 2, 30_000);
      await this.sleep(Math.min(wait, 30_000));
    }
  }

  /** A backoff wait that flush() cuts short. */
  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      t.unref();
      const poll = setInterval(() => this.hurry && done(), 5);
      poll.unref();
      function done() {
        clearTimeout(t);
        clearInterval(poll);
        resolve();
      }
    });
  }

  private async postWithin(batch: Span[], ms: number): Promise<PostResult> {
    const e = encodeFor(this.opts.protocol, () => traceRequestJson(batch, this.opts.origin), () => encodeTraceRequest(batch, this.opts.origin));
    if (!('body' in e)) return e;
    const sending = this.opts.post(e.body, e.type);
    return ms === Infinity ? sending : within(sending, ms, 'no answer before exit');
  }

  private lose(n: number, reason: SpanLossReason, why: string): void {
    this.lost += n;
    this.lostTotal += n;
    if (this.lostReason === null) this.lostReason = reason;
    if (!this.warned && !this.closed) {
      this.warned = true;
      this.opts.warn(`OTLP export to ${this.opts.url} is losing spans (${why}); the relay goes on, losses are counted in the log`);
    }
  }
}
