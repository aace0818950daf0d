/**
 * Live `--otlp`: records from the observer → spans (spans.ts) → the exporter. Messages are parsed only
 * when a span needs them (a traceparent, an error code, progress, `--otlp-content`).
 */
import type { RecordTap, TappedRecord } from '../log/record-tap.js';
import type { MsgSource, Span } from './spans.js';
import { SessionSpans } from './session-spans.js';
import { SpanExporter } from './exporter.js';
import type { OtlpConfig } from './otlp-config.js';
import { httpPoster, type Post } from './http-post.js';
import { originFor } from './origin.js';
import { DurationMetrics } from './metrics.js';
import { MetricExporter } from './metric-exporter.js';

export interface OtlpTapOptions {
  config: OtlpConfig;
  warn: (message: string) => void;
  /** Tool arguments and results as attributes (already redacted by `redact`). */
  content?: boolean;
  /** Redacts a message before its content becomes an attribute. */
  redact?: (value: unknown) => unknown;
  post?: Post;
  /** Where the duration histograms go (tests inject a recorder); by default the configured metrics URL. */
  postMetrics?: Post;
}

/**
 * The message of the record being pushed, parsed at most once and only on demand. One instance serves
 * every record (the builder reads it only during push), so a record costs no allocation here.
 */
class TappedMsg implements MsgSource {
  private r: TappedRecord | null = null;
  private parsed = false;
  private parsedValue: unknown;
  /** The needle asked for last, as bytes: a Buffer needle is searched without converting it each time. */
  private needle = '';
  private needleBytes = Buffer.alloc(0);
  constructor(private readonly redact: ((v: unknown) => unknown) | undefined) {}

  /** The next record's message. */
  reset(r: TappedRecord): this {
    this.r = r;
    this.parsed = false;
    this.parsedValue = undefined;
    return this;
  }

  /** Between records: holds no message (its bytes are valid only during the call). */
  release(): void {
    this.r = null;
    this.parsedValue = undefined;
  }

  value(): unknown {
    if (!this.parsed && this.r !== null) {
      this.parsed = true;
      const r = this.r;
      let v: unknown = r.record.msg;
      if (v === undefined && (r.msgBytes !== undefined || r.msgText !== undefined)) {
        try {
          v = JSON.parse(r.msgText ?? '');
        } catch {
          v = undefined;
        }
      }
      this.parsedValue = this.redact ? this.redact(v) : v;
    }
    return this.parsedValue;
  }

  mayContain(needle: string): boolean {
    const r = this.r;
    if (r === null) return false;
    if (r.msgBytes !== undefined) {
      if (needle !== this.needle) {
        this.needle = needle;
        this.needleBytes = Buffer.from(needle);
      }
      return r.msgBytes.includes(this.needleBytes);
    }
    if (r.msgText !== undefined) return r.msgText.includes(needle);
    return r.record.msg !== undefined;
  }
}

export class OtlpTap implements RecordTap {
  readonly name = 'otlp';
  private readonly builder: SessionSpans;
  private readonly exporter: SpanExporter;
  private readonly msg: TappedMsg;
  /** The duration histograms, aggregated from the spans here, off the relay's thread. */
  private readonly metrics: DurationMetrics | null = null;
  private readonly metricExporter: MetricExporter | null = null;

  constructor(private readonly opts: OtlpTapOptions) {
    this.msg = new TappedMsg(opts.content === true ? opts.redact : undefined);
    this.builder = new SessionSpans({ content: opts.content === true });
    const c = opts.config;
    const origin = originFor(c.serviceName, c.resource);
    this.exporter = new SpanExporter({
      post: opts.post ?? httpPoster(c.url, c.headers, c.timeoutMs),
      protocol: c.protocol,
      origin,
      url: c.url,
      warn: opts.warn,
    });
    const m = c.metrics ?? null;
    if (m !== null) {
      this.metrics = new DurationMetrics(Date.now());
      this.metricExporter = new MetricExporter({
        post: opts.postMetrics ?? httpPoster(m.url, m.headers, c.timeoutMs),
        protocol: m.protocol,
        origin,
        metrics: this.metrics,
        intervalMs: m.intervalMs,
        url: m.url,
        // a receiver that loses spans has been reported already
        warn: (message) => this.exporter.hasWarned || opts.warn(message),
      });
    }
  }

  record(r: TappedRecord): void {
    const spans = this.builder.push(r.record, this.msg.reset(r));
    this.msg.release();
    if (spans.length > 0) this.finished(spans);
  }

  private finished(spans: Span[]): void {
    this.exporter.add(spans);
    if (this.metrics !== null) for (const s of spans) this.metrics.add(s);
  }

  takeLoss(): { lost: number; reason: string } | null {
    return this.exporter.takeLoss();
  }

  flush(maxWaitMs: number): Promise<void> {
    return this.exporter.flush(maxWaitMs);
  }

  async close(maxWaitMs: number): Promise<void> {
    // a session cut short without an end record still closes its spans
    const rest = this.builder.finish(Date.now());
    if (rest.length > 0) this.finished(rest);
    const warned = this.exporter.hasWarned;
    const started = Date.now();
    const lost = await this.exporter.close(maxWaitMs);
    // after the end record the log cannot count them: stderr does, unless the one warning was given already
    if (lost > 0 && !warned) this.opts.warn(`OTLP export to ${this.opts.config.url} lost the session's last ${lost} spans at exit`);
    await this.metricExporter?.close(Math.max(250, maxWaitMs - (Date.now() - started)));
  }
}
