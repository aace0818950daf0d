/**
 * The analysis of one mcp-tap run: observed lines in, log records out, in order of observation.
 * Pure: no I/O, time is passed in. The proxy's observer feeds it and hands its output to the sink.
 * One JSON.parse per line; the message text is handed over verbatim (msgText) instead of re-serialized.
 */
import { isUtf8 } from 'node:buffer';
import type { Line } from '../framing/line-splitter.js';
import {
  type BatchItem,
  type EventName,
  type From,
  type Kind,
  type LogRecord,
  type Note,
  type PendingRequest,
} from '../log/record.js';
import type { Classified } from '../protocol/classify.js';
import { scanEnvelope } from '../protocol/envelope-scan.js';
import { batchAllowed } from '../protocol/mcp.js';
import type { RoutingHeaders } from '../protocol/routing-headers.js';
import { Counts } from './counts.js';
import { notes } from './findings.js';
import { recordLevel } from '../log/level.js';
import { addNote, MessageRules, type Side, type Slot } from './message-rules.js';
import { RecordBase, VerbatimOutput, type Output } from './output.js';
import { capForJson, lineText } from './raw-text.js';

export interface SessionOptions {
  /** The session id written on every record. */
  id: string;
  /** The log's size limit per line (`--max-log-bytes`, default 1 MiB): bounds `raw` text too. */
  maxLogBytes?: number;
  /** Pending requests tracked per side before the oldest is evicted (default 10,000). */
  maxPending?: number;
  /** Classify plain messages from their bytes (default true); false: always JSON.parse (tests compare both). */
  fastPath?: boolean;
}

export const DEFAULT_MAX_LOG_BYTES = 1024 * 1024;
const DEFAULT_MAX_PENDING = 10_000;
const MAX_END_LIST = 1000;

/** Could this line be JSON at all? (Skips a doomed JSON.parse on plain text.) */
function mayBeJson(buf: Buffer, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = buf[i]!;
    if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
    // { [ " - digit t f n
    return c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
  }
  return false;
}

/** Turns observations into records; see docs/log-format.md for what each record carries. */
export class Session {
  private seq = 0;
  private readonly limit: number;
  private readonly rules: MessageRules;
  private readonly counts = new Counts();

  constructor(
    private readonly opts: SessionOptions,
    private readonly out: (o: Output) => void,
  ) {
    this.limit = opts.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES;
    this.rules = new MessageRules(opts.maxPending ?? DEFAULT_MAX_PENDING);
  }

  /**
   * A client message posted with its routing headers (HTTP mode): its requests are checked against
   * them, on either path — the fast path declines every body with `_meta`, where a body names its
   * version, so the general path reads that one.
   */
  onRoutedLine(line: Line, time: number, routing: RoutingHeaders): void {
    this.rules.routing = routing;
    try {
      this.onLine('client', line, time);
    } finally {
      this.rules.routing = undefined;
    }
  }

  /** One line of the server's stdout or the client's stdin. */
  onLine(from: 'client' | 'server', line: Line, time: number): void {
    const data = line.data;
    // the common case on its own: a whole line that the fast path classifies from its bytes (it makes
    // the same record the general path below would: analysis members, bytes, then notes)
    if (data !== undefined && line.partial !== true && this.opts.fastPath !== false && data.length > 0) {
      const fast = scanEnvelope(data);
      if (fast !== null && this.rules.fastPathFits(from, fast)) {
        const rec = this.base(from, 'invalid', time);
        this.analyse(from, undefined, rec, time, fast);
        const found = rec.notes;
        if (found !== undefined) delete rec.notes;
        rec.bytes = line.bytes;
        if (found !== undefined) rec.notes = found;
        this.emit(rec, undefined, data);
        this.lifecycleIfDue(time);
        return;
      }
    }
    this.onOtherLine(from, line, time);
  }

  /** The lifecycle event a line's analysis made due (handshake or discovery done), after its record. */
  private lifecycleIfDue(time: number): void {
    if (this.rules.lifecycleDue) {
      this.rules.lifecycleDue = false;
      this.onEvent('lifecycle', { ...this.rules.lc.fields() }, time);
    }
  }

  /** Any other line (JSON.parse): not the fast path's, torn, over-long, with a CR, or not JSON at all. */
  private onOtherLine(from: Side, line: Line, time: number): void {
    const rec = this.base(from, 'invalid', time);
    let msgText: string | undefined;
    let msgBytes: Buffer | undefined;
    let value: unknown;
    let parsed = false;
    let raw: string | undefined;
    let truncated = false;
    let lineNote: Note | undefined;
    const data = line.data;
    if (data !== undefined) {
      let end = data.length;
      if (end > 0 && data[end - 1] === 0x0d) end--;
      // verbatim only when the bytes are UTF-8 and hold no CR: JSON allows CR as whitespace, but many
      // line readers split on it, so such a message is re-serialized instead
      const utf8 = isUtf8(data);
      const verbatim = utf8 && data.lastIndexOf(0x0d, end - 1) === -1;
      const text = end === 0 ? '' : data.toString('utf8', 0, end);
      if (mayBeJson(data, end)) {
        try {
          value = JSON.parse(text);
          parsed = true;
        } catch {
          // not JSON
        }
      }
      if (parsed) {
        this.analyse(from, value, rec, time);
        if (verbatim) {
          msgText = text;
          msgBytes = data.subarray(0, end);
        } else if (!utf8) lineNote = notes.invalidUtf8(); // msg re-serialized from the parsed value
      } else {
        lineNote = notes.notJson(from, end === 0);
        raw = text;
      }
    } else {
      truncated = true;
      if (typeof line.shortened === 'string') {
        try {
          value = JSON.parse(line.shortened);
          parsed = true;
        } catch {
          // the shortener's output should always parse; treat the line as not JSON if it does not
        }
      }
      if (parsed) {
        this.analyse(from, value, rec, time);
      } else {
        lineNote = notes.notJson(from, false);
        raw = line.head ? lineText(line.head) : '';
      }
    }
    if (raw !== undefined) {
      rec.kind = 'invalid';
      this.rules.rememberUnreadable(from, rec.seq, time, undefined);
    }
    // Line facts and notes go after what the analysis set, so every record reads in the same order.
    const found = rec.notes;
    if (found !== undefined) delete rec.notes;
    rec.bytes = line.bytes;
    if (raw !== undefined) {
      const capped = capForJson(raw, 2 * this.limit);
      raw = capped.text;
      if (capped.cut) truncated = true;
    }
    if (truncated) rec.truncated = true;
    if (line.partial) rec.partial = true;
    let all = found;
    if (lineNote) (all ??= []).push(lineNote);
    if (line.data === undefined) (all ??= []).push(notes.truncated(line.bytes, this.limit));
    if (line.partial) (all ??= []).push(notes.partialLine(from));
    if (all !== undefined) rec.notes = all;
    if (raw !== undefined) rec.raw = raw;
    else if (parsed && msgBytes === undefined) rec.msg = value;
    this.emit(rec, msgText, msgBytes);
    this.lifecycleIfDue(time);
  }

  /** One line of the server's stderr. */
  onStderr(line: Line, time: number): void {
    const rec = this.base('server', 'stderr', time);
    rec.bytes = line.bytes;
    const buf = line.data ?? line.head;
    const capped = capForJson(buf ? lineText(buf) : '', 2 * this.limit);
    rec.raw = capped.text;
    if (line.head || capped.cut) rec.truncated = true;
    if (line.partial) rec.partial = true;
    this.emit(rec);
  }

  /** One of mcp-tap's own events. */
  onEvent(event: EventName, fields: Record<string, unknown>, time: number): void {
    const rec = this.base('proxy', 'event', time);
    rec.event = event;
    Object.assign(rec, fields);
    this.emit(rec);
  }

  /** Last record of the session: the requests still unanswered, and counts. */
  finish(time: number, fields: Record<string, unknown> = {}): void {
    const pending: PendingRequest[] = [];
    const cancelled: PendingRequest[] = [];
    for (const side of ['client', 'server'] as const) {
      for (const e of this.rules.tables[side].list()) {
        (e.cancelled ? cancelled : pending).push({ from: side, id: e.id, method: e.method, seq: e.seq });
      }
    }
    pending.sort((a, b) => a.seq - b.seq);
    cancelled.sort((a, b) => a.seq - b.seq);
    const end: Record<string, unknown> = {
      pending: pending.length > MAX_END_LIST ? pending.slice(0, MAX_END_LIST) : pending,
      pendingCount: pending.length,
    };
    if (cancelled.length > 0) end['cancelledPending'] = cancelled.length > MAX_END_LIST ? cancelled.slice(0, MAX_END_LIST) : cancelled;
    const open = this.rules.tasks.openTasks(MAX_END_LIST);
    if (open.count > 0) {
      end['openTasks'] = open.list;
      end['openTaskCount'] = open.count;
    }
    end['counts'] = { ...this.counts };
    const evC = this.rules.tables.client.evicted;
    const evS = this.rules.tables.server.evicted;
    if (evC + evS > 0) end['evicted'] = { client: evC, server: evS };
    if (this.rules.tasks.evicted > 0) end['tasksEvicted'] = this.rules.tasks.evicted;
    this.onEvent('end', { ...end, ...fields }, time);
  }

  private base(from: From, kind: Kind, time: number): LogRecord {
    return new RecordBase(time, this.opts.id, ++this.seq, from, kind) as LogRecord;
  }

  private emit(rec: LogRecord, msgText?: string, msgBytes?: Buffer): void {
    // last, so that every record reads in the same order whatever the analysis added
    rec.level = recordLevel(rec);
    this.counts.add(rec.kind);
    if (rec.notes) this.counts.notes += rec.notes.length;
    this.out(msgBytes === undefined ? { record: rec } : new VerbatimOutput(rec, msgBytes, msgText));
  }

  /**
   * A parsed line (one message or a batch), or one the fast path already classified. Analysis bugs never
   * cost the record.
   */
  private analyse(from: Side, value: unknown, rec: LogRecord, time: number, fast?: Classified): void {
    try {
      if (fast !== undefined) this.rules.classified(from, fast, rec, rec.seq, time);
      else if (Array.isArray(value)) this.batch(from, value, rec, time);
      else this.rules.message(from, value, rec, rec.seq, time);
    } catch (err) {
      addNote(rec, notes.analysisError(err));
    }
  }

  private batch(from: Side, arr: unknown[], rec: LogRecord, time: number): void {
    if (arr.length === 0) {
      rec.kind = 'invalid';
      addNote(rec, notes.emptyBatch());
      this.rules.rememberUnreadable(from, rec.seq, time, undefined);
      return;
    }
    rec.kind = 'batch';
    const version = this.rules.lc.version;
    const items: BatchItem[] = new Array<BatchItem>(arr.length);
    let hasInitialize = false;
    for (let i = 0; i < arr.length; i++) {
      const item: Slot = { kind: 'invalid' };
      this.rules.message(from, arr[i], item, rec.seq, time);
      if (item.kind === 'request' && item.method === 'initialize') hasInitialize = true;
      items[i] = item as BatchItem;
    }
    if (hasInitialize) addNote(rec, notes.batchNotAllowed(version, true));
    else if (version !== undefined && !batchAllowed(version)) addNote(rec, notes.batchNotAllowed(version, false));
    for (let i = 0; i < items.length; i++) {
      const n = items[i]!.notes;
      if (n) for (const x of n) addNote(rec, { code: x.code, text: `element ${i + 1}: ${x.text}` });
    }
    rec.items = items;
  }

}
