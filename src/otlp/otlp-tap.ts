/**
 * Live `--otlp`: records from the observer → spans (spans.ts) → the exporter. Messages are parsed only
 * when a span needs them (a traceparent, an error code, progress, `--otlp-content`).
 */
import type { RecordTap, TappedRecord } from '../log/record-tap.js';
import { SpanBuilder, type MsgSource } from './spans.js';
import { SpanExporter } from './exporter.js';
import type { OtlpConfig } from './otlp-config.js';
import { httpPoster, type Post } from './http-post.js';
import { originFor } from './origin.js';

export interface OtlpTapOptions {
  config: OtlpConfig;
  warn: (message: string) => void;
  /** Tool arguments and results as attributes (already redacted by `redact`). */
  content?: boolean;
  /** Redacts a message before its content becomes an attribute. */
  redact?: (value: unknown) => unknown;
  post?: Post;
}

/** The message of a tapped record, parsed at most once and only on demand. */
class TappedMsg implements MsgSource {
  private parsed = false;
  private parsedValue: unknown;
  constructor(
    private readonly r: TappedRecord,
    private readonly redact: ((v: unknown) => unknown) | undefined,
  ) {}

  value(): unknown {
    if (!this.parsed) {
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
    if (r.msgBytes !== undefined) return r.msgBytes.includes(needle);
    if (r.msgText !== undefined) return r.msgText.includes(needle);
    return r.record.msg !== undefined;
  }
}

export class OtlpTap implements RecordTap {
  readonly name = 'otlp';
  private readonly builder: SpanBuilder;
  private readonly exporter: SpanExporter;

  constructor(private readonly opts: OtlpTapOptions) {
    this.builder = new SpanBuilder({ content: opts.content === true });
    const c = opts.config;
    this.exporter = new SpanExporter({
      post: opts.post ?? httpPoster(c.url, c.headers, c.timeoutMs),
      protocol: c.protocol,
      origin: originFor(c.serviceName, c.resource),
      url: c.url,
      warn: opts.warn,
    });
  }

  record(r: TappedRecord): void {
    const spans = this.builder.push(r.record, new TappedMsg(r, this.opts.content === true ? this.opts.redact : undefined));
    if (spans.length > 0) this.exporter.add(spans);
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
    if (rest.length > 0) this.exporter.add(rest);
    const warned = this.exporter.hasWarned;
    const lost = await this.exporter.close(maxWaitMs);
    // after the end record the log cannot count them: stderr does, unless the one warning was given already
    if (lost > 0 && !warned) this.opts.warn(`OTLP export to ${this.opts.config.url} lost the session's last ${lost} spans at exit`);
  }
}
