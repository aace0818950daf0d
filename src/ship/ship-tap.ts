/**
 * `--ship <target>`: each record, as the exact JSON line the log gets, into a pino transport running in
 * pino's worker thread. The records of one event-loop turn go in one write, encoded once into one buffer
 * (the log sink's own encoding copied when it has one), so the relay's thread pays a copy per record. A transport that falls behind (past MAX_BEHIND_BYTES) or fails costs counted
 * drops and one warning; the relay and the log never wait for it.
 */
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import type { RecordTap, TappedRecord } from '../log/record-tap.js';
import { serializeHead, serializeRecord } from '../log/serialize.js';

/** The part of pino's ThreadStream the tap uses. */
export interface TransportStream {
  write(data: Buffer | string): boolean;
  flush(cb: (err?: Error) => void): void;
  end(): void;
  on(event: 'error' | 'drain' | 'close', fn: (err?: Error) => void): unknown;
  once(event: 'close', fn: () => void): unknown;
  worker?: { terminate(): Promise<number> };
}

export interface ShipTarget {
  target: string;
  options?: Record<string, unknown>;
}

/** Bytes a transport may be behind (beyond what its worker has taken) before records are dropped. */
const MAX_BEHIND_BYTES = 8 * 1024 * 1024;
/** A turn's records are encoded into a buffer of this size (larger for a larger record); a full one is written at once. */
const BATCH_BYTES = 64 * 1024;
/** How often the worker is asked to confirm what it took. */
const CONFIRM_MS = 1000;

/** A file path names the user's own transport (resolved from cwd); anything else is a package. */
export function resolveShipTarget(target: string, cwd: string): string {
  const path = target.startsWith('.') || isAbsolute(target);
  const name = path ? resolve(cwd, target) : target;
  try {
    // a package as installed for the project mcp-tap runs in (else as pino finds it from mcp-tap);
    // a directory by its package.json, as require would take it
    return createRequire(join(cwd, 'package.json')).resolve(name);
  } catch {
    return name;
  }
}

export class ShipTap implements RecordTap {
  readonly name: string;
  private behind = false;
  private behindBytes = 0;
  private broken = false;
  private warned = false;
  private closed = false;
  private lost = 0;
  private lostReason: string | null = null;
  /** Records handed to the transport. */
  shipped = 0;
  /** Records the transport's worker confirmed (a flush acknowledged after them). */
  confirmed = 0;
  private confirming = false;
  private readonly confirmTimer: NodeJS.Timeout;
  /** The records of this turn of the event loop, encoded, waiting for one write (see onTurn). */
  private batch: Buffer | null = null;
  private batchUsed = 0;
  private batchRecords = 0;

  constructor(
    label: string,
    private readonly stream: TransportStream,
    private readonly warn: (message: string) => void,
  ) {
    this.name = `ship:${label}`;
    stream.on('error', (err) => {
      if (this.broken) return;
      this.broken = true;
      // one line: a module that cannot be found comes with Node's "Require stack:" lines after the first
      const reason = err?.message?.split('\n')[0]?.trim() || 'unknown error';
      this.once(`the pino transport ${label} failed (${reason}); records are not shipped, losses are counted in the log`);
      // what the worker had not confirmed may be lost with it: an upper bound, like the log's file-removed
      this.lose('transport-failed', 'it failed', this.shipped - this.confirmed + this.batchRecords);
      this.batch = null;
      this.batchRecords = 0;
    });
    // the worker confirms what its destination took, so a failure can count what went with it
    this.confirmTimer = setInterval(() => this.confirm(), CONFIRM_MS);
    this.confirmTimer.unref();
    stream.on('drain', () => {
      this.behind = false;
      this.behindBytes = 0;
    });
  }

  record(r: TappedRecord): void {
    if (this.closed) return;
    // the records that count this sink's own losses cannot reach it either; counting them would never end
    if (this.broken) return this.isOwnGap(r) ? undefined : this.lose('transport-failed', 'it failed');
    // the log sink's own line when it has one; else the record serialized here, once
    let text = '';
    let size: number;
    if (r.line !== undefined) size = r.line.length;
    else {
      try {
        text = r.msgBytes !== undefined ? serializeHead(r.record) : serializeRecord(r.record, r.msgText);
      } catch {
        return this.lose('transport-failed', 'a record could not be serialized');
      }
      size = Buffer.byteLength(text) + (r.msgBytes !== undefined ? r.msgBytes.length + 2 : 0);
    }
    if (this.behind && this.behindBytes + this.batchBytes() + size > MAX_BEHIND_BYTES) {
      return this.isOwnGap(r) ? undefined : this.lose('queue-full', 'it is not keeping up');
    }
    if (this.batch !== null && this.batch.length - this.batchUsed < size) this.writeBatch();
    if (this.broken) return this.lose('transport-failed', 'it failed');
    if (this.batch === null) {
      this.batch = Buffer.allocUnsafe(Math.max(BATCH_BYTES, size));
      this.batchUsed = 0;
      setImmediate(this.onTurn);
    }
    const b = this.batch;
    let at = this.batchUsed;
    if (r.line !== undefined) at += r.line.copy(b, at);
    else {
      at += b.write(text, at, 'utf8');
      if (r.msgBytes !== undefined) {
        at += r.msgBytes.copy(b, at);
        b[at++] = 0x7d;
        b[at++] = 0x0a;
      }
    }
    this.batchUsed = at;
    this.batchRecords++;
  }

  /** The end of the event loop's turn: what the turn's records added goes to the transport in one write. */
  private readonly onTurn = (): void => {
    if (this.batch !== null) this.writeBatch();
  };

  /** One write of the records batched so far (the transport keeps the buffer: a new one is started). */
  private writeBatch(): void {
    const b = this.batch;
    const n = this.batchRecords;
    this.batch = null;
    this.batchRecords = 0;
    if (b === null || n === 0) return;
    const data = b.subarray(0, this.batchUsed);
    if (this.broken) return this.lose('transport-failed', 'it failed', n);
    let ok: boolean;
    try {
      ok = this.stream.write(data);
    } catch (err) {
      this.broken = true;
      return this.lose('transport-failed', err instanceof Error ? err.message : String(err), n);
    }
    this.shipped += n;
    if (!ok || this.behind) {
      this.behind = true;
      this.behindBytes += data.length;
    }
  }

  private batchBytes(): number {
    return this.batch === null ? 0 : this.batchUsed;
  }

  private isOwnGap(r: TappedRecord): boolean {
    return r.record.event === 'sink-gap' && r.record['sink'] === this.name;
  }

  takeLoss(): { lost: number; reason: string } | null {
    if (this.lost === 0) return null;
    const out = { lost: this.lost, reason: this.lostReason ?? 'transport-failed' };
    this.lost = 0;
    this.lostReason = null;
    return out;
  }

  /** Asks the worker to confirm what it has taken so far. */
  private confirm(): void {
    if (this.confirming || this.broken || this.shipped === this.confirmed) return;
    this.confirming = true;
    const upTo = this.shipped;
    try {
      this.stream.flush((err) => {
        this.confirming = false;
        if (!err) this.confirmed = Math.max(this.confirmed, upTo);
      });
    } catch {
      this.confirming = false;
    }
  }

  async flush(maxWaitMs: number): Promise<void> {
    this.writeBatch();
    if (this.broken) return;
    const upTo = this.shipped;
    const ok = await this.within(maxWaitMs, (done) => {
      try {
        this.stream.flush((err) => (err ? undefined : done()));
      } catch {
        // broken: the error handler counts
      }
    });
    if (ok) this.confirmed = Math.max(this.confirmed, upTo);
  }

  async close(maxWaitMs: number): Promise<void> {
    this.closed = true;
    clearInterval(this.confirmTimer);
    if (this.broken) return;
    // ending a transport that is behind would block the event loop (thread-stream waits synchronously
    // for its worker): only one that confirmed everything is ended; any other is stopped
    await this.flush(maxWaitMs);
    if (this.confirmed < this.shipped) {
      this.once(`the pino transport ${this.name.slice(5)} had not taken its last ${this.shipped - this.confirmed} records within ${maxWaitMs} ms at exit; they may be missing`);
      // stopped now: otherwise pino's exit hook would wait for it synchronously (10 s) and then throw
      await this.within(maxWaitMs, (done) => {
        this.stream.once('close', done);
        this.stream.worker?.terminate().catch(() => {});
      });
      return;
    }
    const finished = await this.within(maxWaitMs, (done) => {
      this.stream.once('close', done);
      try {
        this.stream.end();
      } catch {
        done();
      }
    });
    if (!finished) this.once(`the pino transport ${this.name.slice(5)} had not finished within ${maxWaitMs} ms at exit; its last records may be missing`);
  }

  private within(ms: number, start: (done: () => void) => void): Promise<boolean> {
    return new Promise<boolean>((resolvePromise) => {
      const timer = setTimeout(() => resolvePromise(false), ms);
      start(() => {
        clearTimeout(timer);
        resolvePromise(true);
      });
    });
  }

  private lose(reason: string, why: string, n = 1): void {
    if (n <= 0) return;
    this.lost += n;
    if (this.lostReason === null) this.lostReason = reason;
    this.once(`shipping records to ${this.name.slice(5)} loses records (${why}); the relay goes on, losses are counted in the log`);
  }

  private once(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(message);
  }
}

/** Starts one pino transport worker per target (loads pino: only when --ship is given). */
export async function openShipTaps(targets: readonly ShipTarget[], cwd: string, warn: (m: string) => void): Promise<ShipTap[]> {
  const { default: pino } = await import('pino');
  const taps: ShipTap[] = [];
  for (const t of targets) {
    try {
      const stream = pino.transport({ target: resolveShipTarget(t.target, cwd), options: t.options ?? {}, worker: { autoEnd: false } });
      taps.push(new ShipTap(t.target, stream as unknown as TransportStream, warn));
    } catch (err) {
      warn(`cannot start the pino transport ${t.target} (${err instanceof Error ? err.message : String(err)}); its records are not shipped`);
    }
  }
  return taps;
}
