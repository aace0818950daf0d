/**
 * Sends the duration histograms (metrics.ts) every interval while the session runs and once more when it
 * ends. Cumulative: a send that fails loses nothing, the next one carries every count. Never blocks or
 * throws into its caller; a final send that fails is reported once.
 */
import type { DurationMetrics } from './metrics.js';
import { encodeMetricsRequest, metricsRequestJson } from './otlp-metrics.js';
import type { SpanOrigin } from './otlp-json.js';
import type { OtlpProtocol } from './otlp-config.js';
import type { Post, PostResult } from './http-post.js';
import { describeResult, encodeFor, within } from './post-body.js';

export interface MetricExporterOptions {
  post: Post;
  protocol: OtlpProtocol;
  origin: SpanOrigin;
  metrics: DurationMetrics;
  intervalMs: number;
  /** Where the metrics go, for the warning. */
  url: string;
  warn: (message: string) => void;
  now?: () => number;
}

export class MetricExporter {
  private readonly timer: NodeJS.Timeout;
  /** The recorded count the receiver has (nothing to send while it stands). */
  private sent = 0;
  private sending: Promise<PostResult> | null = null;
  private closed = false;

  constructor(private readonly opts: MetricExporterOptions) {
    this.timer = setInterval(() => void this.send(), opts.intervalMs);
    this.timer.unref();
  }

  /** The last send, within `maxWaitMs`; says once on stderr when the receiver did not take it. */
  async close(maxWaitMs: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    if (this.sending) await this.sending;
    if (this.opts.metrics.recordedCount === this.sent) return;
    const r = await within(this.send(), maxWaitMs, `no answer within ${maxWaitMs} ms at exit`);
    if (r.status < 200 || r.status >= 300) this.opts.warn(`OTLP metrics export to ${this.opts.url} failed at exit (${describeResult(r)}); the session's duration histograms were not delivered`);
  }

  private async send(): Promise<PostResult> {
    const count = this.opts.metrics.recordedCount;
    if (this.sending || count === this.sent) return this.sending ?? { status: 200 };
    const now = (this.opts.now ?? Date.now)();
    const metrics = this.opts.metrics.collect();
    const e = encodeFor(this.opts.protocol, () => metricsRequestJson(metrics, this.opts.origin, now), () => encodeMetricsRequest(metrics, this.opts.origin, now));
    if (!('body' in e)) return e;
    this.sending = this.opts.post(e.body, e.type);
    const r = await this.sending;
    this.sending = null;
    if (r.status >= 200 && r.status < 300) this.sent = count;
    return r;
  }
}
