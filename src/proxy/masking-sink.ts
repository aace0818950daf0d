/**
 * A record sink in front of the log file that masks the server's secret environment values in every
 * record (messages, stderr lines, the start event's argv) before they are queued. Only the log's copy
 * changes: the relay never passes through here. Installed only when there are secrets to mask, so a
 * session without them pays nothing.
 */
import type { LogRecord } from '../log/record.js';
import { serializeHead } from '../log/serialize.js';
import type { EnvMasker } from '../log/env-mask.js';
import type { RecordSink } from './observer.js';

const CLOSE = '}\n';

export class MaskingSink implements RecordSink {
  constructor(
    private readonly inner: RecordSink,
    private readonly masker: EnvMasker,
  ) {}

  write(text: string, body?: Buffer): boolean {
    // HTTP mode installs the masker before it has learned anything: then it costs nothing
    if (!this.masker.active) return this.inner.write(text, body);
    if (body === undefined) return this.inner.write(this.masker.maskLine(text));
    if (!this.masker.hitsText(text) && !this.masker.hitsBytes(body)) return this.inner.write(text, body);
    return this.inner.write(this.masker.maskLine(text + body.toString('utf8') + CLOSE));
  }

  writeRecord(record: LogRecord, body: Buffer): boolean {
    if (!this.masker.active) return this.inner.writeRecord !== undefined ? this.inner.writeRecord(record, body) : this.inner.write(serializeHead(record), body);
    const inner = this.inner;
    if (inner.writeRecord !== undefined && inner.lastLine !== undefined && inner.takeBackLast !== undefined) {
      // the line as the file gets it, searched once (encoding the head apart to search it cost more than
      // the search); one that holds a secret is taken back and written masked
      if (!inner.writeRecord(record, body)) return false;
      const line = inner.lastLine();
      if (line === undefined || !this.masker.hitsBytes(line)) return true;
      inner.takeBackLast();
      return inner.write(this.masker.maskLine(line.toString('utf8')));
    }
    const head = serializeHead(record);
    if (!this.masker.hitsText(head) && !this.masker.hitsBytes(body)) {
      return this.inner.writeRecord !== undefined ? this.inner.writeRecord(record, body) : this.inner.write(head, body);
    }
    return this.inner.write(this.masker.maskLine(head + body.toString('utf8') + CLOSE));
  }

  takeLoss(): { lost: number; reason: string } | null {
    return this.inner.takeLoss();
  }

  close(): Promise<void> | void {
    return this.inner.close();
  }

  /** The log's own settle (see RecordSink): the masking has nothing in flight. */
  settle(maxWaitMs: number): Promise<void> {
    return this.inner.settle?.(maxWaitMs) ?? Promise.resolve();
  }

  lastLine(): Buffer | undefined {
    // the inner sink's line is the masked one only when nothing was masked; taps then reuse it
    return this.masker.active ? undefined : this.inner.lastLine?.();
  }
}
