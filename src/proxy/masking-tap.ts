/**
 * The sinks beside the log (OTLP spans, pino transports) get the same masked copy the log gets: a
 * record that holds one of the server's secret environment values is masked before the tap sees it.
 * Installed only when there are secrets to mask.
 */
import type { LogRecord } from '../log/record.js';
import type { RecordTap, TappedRecord } from '../log/record-tap.js';
import { serializeHead, serializeRecord } from '../log/serialize.js';
import type { EnvMasker } from '../log/env-mask.js';

export class MaskingTap implements RecordTap {
  readonly name: string;

  constructor(
    private readonly inner: RecordTap,
    private readonly masker: EnvMasker,
  ) {
    this.name = inner.name;
  }

  record(r: TappedRecord): void {
    if (!this.masker.active) return this.inner.record(r);
    const hit = r.msgBytes !== undefined ? this.masker.hitsText(serializeHead(r.record)) || this.masker.hitsBytes(r.msgBytes) : this.masker.hitsText(serializeRecord(r.record, r.msgText));
    if (!hit) return this.inner.record(r);
    const line = r.msgBytes !== undefined ? `${serializeHead(r.record)}${r.msgBytes.toString('utf8')}}\n` : serializeRecord(r.record, r.msgText);
    this.inner.record({ record: JSON.parse(this.masker.maskLine(line)) as LogRecord });
  }

  takeLoss(): { lost: number; reason: string } | null {
    return this.inner.takeLoss();
  }

  flush(maxWaitMs: number): Promise<void> {
    return this.inner.flush(maxWaitMs);
  }

  close(maxWaitMs: number): Promise<void> {
    return this.inner.close(maxWaitMs);
  }
}
