/**
 * What a Session hands its sink: a record, and the message's exact wire text or bytes to embed as `msg`.
 * Pure. The classes build records and outputs with one allocation each on the per-line path.
 */
import { LOG_FORMAT_VERSION, type From, type Kind, type LogRecord } from '../log/record.js';

/** A record plus, when available, the exact JSON text of `msg` to embed instead of re-serializing. */
export interface Output {
  record: LogRecord;
  /** The message's JSON text exactly as on the wire (read it during the callback: it may decode msgBytes). */
  readonly msgText?: string;
  /** The same message as bytes, exactly as on the wire (valid UTF-8, no CR): written without re-encoding. Only valid during the callback. */
  msgBytes?: Buffer;
}

/**
 * A record's first members. Built by a constructor rather than a literal so V8 sizes the objects for
 * the members the analysis adds later (one allocation per record instead of two); the members and their
 * order are those of the literal `{ v, time, session, seq, from, kind }`.
 */
export class RecordBase {
  v: number;
  time: number;
  session: string;
  seq: number;
  from: From;
  kind: Kind;
  constructor(time: number, session: string, seq: number, from: From, kind: Kind) {
    this.v = LOG_FORMAT_VERSION;
    this.time = time;
    this.session = session;
    this.seq = seq;
    this.from = from;
    this.kind = kind;
  }
}

/** An Output whose message text is decoded only if someone asks (the log writes the bytes). */
export class VerbatimOutput implements Output {
  constructor(
    readonly record: LogRecord,
    readonly msgBytes: Buffer,
    private text: string | undefined,
  ) {}

  get msgText(): string {
    return (this.text ??= this.msgBytes.toString('utf8'));
  }
}
