/**
 * `--ship <target>`: each record, as the exact JSON line the log gets, into a pino transport running in
 * pino's worker thread. A transport that falls behind (past MAX_BEHIND_BYTES) or fails costs counted
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

/** The exact log line of a record (head + message bytes when the record has them). */
export function recordLine(r: TappedRecord): Buffer | string {
  if (r.msgBytes !== undefined) {
    const head = serializeHead(r.record);
    return Buffer.concat([Buffer.from(head), r.msgBytes, Buffer.from('}\n')]);
  }
  return serializeRecord(r.record, r.msgText);
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

  constructor(
    label: string,
    private readonly stream: TransportStream,
    private readonly warn: (message: string) => void,
  ) {
    this.name = `ship:${label}`;
    stream.on('error', (err) => {
      if (this.broken) return;
      this.broken = true;
      this.once(`the pino transport ${label} failed (${err?.message ?? 'unknown error'}); records are not shipped, losses are counted in the log`);
      // what the worker had not confirmed may be lost with it: an upper bound, like the log's file-removed
      this.lose('transport-failed', 'it failed', this.shipped - this.confirmed);
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
    if (this.broken) return r.record.event === 'sink-gap' && r.record['sink'] === this.name ? undefined : this.lose('transport-failed', 'it failed');
    let line: Buffer | string;
    try {
      line = recordLine(r);
    } catch {
      return this.lose('transport-failed', 'a record could not be serialized');
    }
    if (this.behind && this.behindBytes + line.length > MAX_BEHIND_BYTES) {
      return r.record.event === 'sink-gap' && r.record['sink'] === this.name ? undefined : this.lose('queue-full', 'it is not keeping up');
    }
    let ok: boolean;
    try {
      ok = this.stream.write(line);
    } catch (err) {
      this.broken = true;
      return this.lose('transport-failed', err instanceof Error ? err.message : String(err));
    }
    this.shipped++;
    if (!ok || this.behind) {
      this.behind = true;
      this.behindBytes += line.length;
    }
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
