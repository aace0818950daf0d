/**
 * A sink beside the log file (live OTLP spans, pino transports): it sees every record the log gets, in
 * order, and must neither block nor throw into the caller. What it cannot deliver it counts; the
 * observer turns the count into a `sink-gap` record.
 */
import type { LogRecord } from './record.js';

/** One record as the observer has it: the message as exact text or bytes when the record lacks `msg`. */
export interface TappedRecord {
  record: LogRecord;
  /** The message's JSON text (decoded on demand). */
  readonly msgText?: string;
  /** The same as bytes; valid only during the call. */
  msgBytes?: Buffer;
  /** The record's exact log line as the log sink encoded it, when it did; valid only during the call. */
  line?: Buffer | undefined;
}

export interface RecordTap {
  /** Which sink, as `sink-gap` records name it (`otlp`, `ship:<target>`). */
  readonly name: string;
  record(r: TappedRecord): void;
  takeLoss(): { lost: number; reason: string } | null;
  /** Before the end record: delivers what waits within `maxWaitMs`, so the log can count what was lost. */
  flush(maxWaitMs: number): Promise<void>;
  /** After the end record: delivers the rest within `maxWaitMs`; losses now can only go to stderr. */
  close(maxWaitMs: number): Promise<void>;
}
