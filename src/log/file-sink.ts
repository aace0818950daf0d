/**
 * The log file edge. Appends records asynchronously, one write in flight, with a bounded queue, so the
 * relay never waits for the disk. Every record it cannot keep (queue full, write failed, file gone) is
 * counted; the caller turns the count into a `gap` record once the log is writable again.
 */
import * as fs from 'node:fs';
import { describeFsError } from './fs-error.js';
import { openLogFile } from './open-log-file.js';
import type { LogRecord } from './record.js';
import { RecordQueue, unwrittenOf, type Job } from './record-queue.js';
import { rotateLogFiles } from './rotate-log-files.js';

export interface FileSinkOptions {
  path: string;
  /** Bytes queued in memory before records are dropped (and counted). */
  maxQueueBytes?: number;
  /** Rotate when the file grows past this many bytes (0: never). */
  maxSize?: number;
  /** Rotated files kept: path.1 … path.N. */
  maxFiles?: number;
  /** How often to check that the path still names our file (deleted or replaced → reopen). */
  checkIntervalMs?: number;
  /** One line per problem, for stderr. */
  warn: (message: string) => void;
}

/** Why the log lost records, as the gap record states it. */
export type LossReason = 'queue-full' | 'write-failed' | 'file-removed';

const RETRY_MS = 1000;
const FLUSH_DELAY_MS = 5;
/** Queued characters that start a write at once instead of after the delay. */
const FLUSH_NOW_BYTES = 256 * 1024;

/** Append-only writer of serialized records, tolerant of a bad disk. */
export class FileSink {
  private fd: number | null = null;
  private ino = -1;
  private readonly queue = new RecordQueue();
  private writing = false;
  private size = 0;
  private broken = false;
  /** A failure was announced and no write has succeeded since: further failures stay quiet. */
  private outage = false;
  private retryAt = 0;
  private closed = false;
  /** A write is with the kernel (not just scheduled): what it holds belongs to the file it was given. */
  private inFlight = false;
  private timer: NodeJS.Timeout | null = null;
  /** Records not written since the last time the caller collected them. */
  private lostSinceReport = 0;
  private lostReason: LossReason | null = null;
  /** The file ends inside a record (a write failed half way): the next write starts with a line end. */
  private tornTail = false;
  /** The loss count handed out by takeLoss, attached to the next record written (the gap record). */
  private carryNext = 0;
  /** The log file was removed while running: the next gap record says so even when nothing was lost. */
  private removedNotice = false;
  /** Records written since the path was last seen naming our file (lost if the file turns out removed). */
  private writtenSinceCheck = 0;
  /** Total records not written, over the sink's life. */
  lostTotal = 0;
  private readonly maxQueueBytes: number;
  private readonly maxSize: number;
  private readonly maxFiles: number;

  constructor(private readonly opts: FileSinkOptions) {
    this.maxQueueBytes = opts.maxQueueBytes ?? 64 * 1024 * 1024;
    this.maxSize = opts.maxSize ?? 0;
    this.maxFiles = opts.maxFiles ?? 3;
  }

  /** Opens the path (anew), or takes `fd` opened on it already, with its inode and size; throws the fs error. */
  private attach(warn: (m: string) => void = () => {}, fd?: number): void {
    this.fd = fd ?? openLogFile(this.opts.path, warn);
    const st = fs.fstatSync(this.fd);
    this.ino = st.ino;
    this.size = st.size;
    if (this.size === 0) this.tornTail = false;
  }

  /**
   * Opens the file, or takes `fd` (opened on it where the relay starts); on failure warns once and keeps
   * counting what it could not write.
   */
  open(fd?: number): boolean {
    try {
      this.attach(this.opts.warn, fd);
      this.broken = false;
      const interval = this.opts.checkIntervalMs ?? 1000;
      if (interval > 0 && !this.timer) {
        this.timer = setInterval(() => this.checkPath(), interval);
        this.timer.unref();
      }
      return true;
    } catch (err) {
      this.fail(`cannot open log ${this.opts.path} (${describeFsError(err)}); relaying without a log`);
      return false;
    }
  }

  get path(): string {
    return this.opts.path;
  }

  /** True once records are being lost. */
  get isBroken(): boolean {
    return this.broken;
  }

  /** Records and bytes waiting for the disk (the debug trace reports them at shutdown). */
  queued(): { records: number; bytes: number } {
    return { records: this.queue.count, bytes: this.queue.bytes };
  }

  /** Lost records not yet reported in a gap record, and why; resets the count. */
  takeLoss(): { lost: number; reason: LossReason } | null {
    if ((this.lostSinceReport === 0 && !this.removedNotice) || this.broken) return null;
    const out = { lost: this.lostSinceReport, reason: this.lostReason ?? 'write-failed' };
    // the caller writes the gap record next; if that record is lost as well, the count comes back
    this.carryNext = this.lostSinceReport;
    this.lostSinceReport = 0;
    this.lostReason = null;
    this.removedNotice = false;
    return out;
  }

  /** Queue one serialized record (a line ending in \n), or a record head whose message bytes `body` follow. Returns false when it was dropped (and counted). */
  write(text: string, body?: Buffer): boolean {
    const carries = this.admit();
    if (carries < 0) return false;
    return this.bound(this.queue.appendText(text, body, carries), carries);
  }

  /** Queue a record whose message is `body`, its exact JSON bytes (encoded at once: `body` is not kept). */
  writeRecord(record: LogRecord, body: Buffer): boolean {
    const carries = this.admit();
    if (carries < 0) return false;
    let size: number;
    try {
      size = this.queue.appendRecord(record, body, carries);
    } catch (err) {
      // the caller writes the record another way (see Observer.emit): the loss count goes with it
      this.carryNext = carries;
      throw err;
    }
    return this.bound(size, carries);
  }

  /**
   * Takes back the record queued last, still in memory (a sink in front found a secret in its encoded
   * line and writes it masked instead); the loss count it carried goes with the next record.
   */
  takeBackLast(): void {
    if (this.queue.last() === undefined) return;
    this.carryNext = this.queue.dropLast();
  }

  /** The line of the record just written, as encoded for the file (sinks beside the log reuse it); valid only during the caller. */
  lastLine(): Buffer | undefined {
    return this.queue.last();
  }

  /** Before queueing a record: the loss count it carries, or -1 when it cannot be kept (counted). */
  private admit(): number {
    this.queue.forgetLast();
    if (this.closed) return -1;
    const carries = this.carryNext;
    this.carryNext = 0;
    if (this.broken) {
      if (Date.now() < this.retryAt || !this.reopen()) {
        this.lose(1, 'write-failed', carries);
        return -1;
      }
    }
    return carries;
  }

  /** After queueing `size` bytes: drops the record again when the queue went over its bound. */
  private bound(size: number, carries: number): boolean {
    if (this.queue.bytes > this.maxQueueBytes && this.queue.bytes > size) {
      this.queue.dropLast();
      this.lose(1, 'queue-full', carries);
      return false;
    }
    if (!this.writing) this.flushSoon();
    return true;
  }

  /**
   * Writes what is queued and closes the file, in order: after a write in flight completes, the rest is
   * written synchronously. Resolves when done; callers bound the wait for a disk that hangs.
   */
  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      if (this.timer) clearInterval(this.timer);
    }
    if (this.flushTimer) {
      // a flush is scheduled but no write is in flight: write the rest now
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
      this.writing = false;
    }
    if (!this.writing) this.finishCloseIfNeeded();
    if (this.fd === null) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  private closeWaiters: Array<() => void> = [];
  /** Callers of settle() waiting for the write in flight. */
  private settlers: Array<() => void> = [];

  /**
   * Before the session's end record: waits (at most `maxWaitMs`) for the write in flight and checks the
   * path once more, so that a file removed late in the session, or noticed while a write held its reopen
   * back, has its loss counted where the next takeLoss() reports it (the end record comes after).
   */
  async settle(maxWaitMs: number): Promise<void> {
    const until = Date.now() + maxWaitMs;
    // a reopen waiting for a write is done when that write completes
    while (this.inFlight && Date.now() < until) await this.nextWriteDone(until - Date.now());
    // with nothing in flight a path check that finds the file gone reopens at once
    if (!this.inFlight) this.checkPath();
  }

  private nextWriteDone(maxWaitMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      this.settlers.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** A write completed (its reopen, if one waited, follows in the same turn, before the settlers run). */
  private wakeSettlers(): void {
    if (this.settlers.length === 0) return;
    const settlers = this.settlers;
    this.settlers = [];
    queueMicrotask(() => {
      for (const s of settlers) s();
    });
  }

  private flushTimer: NodeJS.Timeout | null = null;

  private flushSoon(): void {
    this.writing = true;
    if (this.queue.bytes >= FLUSH_NOW_BYTES) {
      setImmediate(() => this.flush());
      return;
    }
    // Coalesce: one write per few milliseconds instead of one per event-loop turn; tail -f barely notices.
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flush();
    }, FLUSH_DELAY_MS);
  }

  private flush(): void {
    if (this.fd === null || this.queue.count === 0 || this.broken) {
      this.writing = false;
      this.finishCloseIfNeeded();
      return;
    }
    if (this.pendingReopen) this.reopenQuietly(true);
    // without rotation everything queued goes in one write (several arenas: one writev)
    const jobs: Job[] = [];
    for (let job = this.takeJob(); job !== null; job = this.maxSize > 0 ? null : this.takeJob()) jobs.push(job);
    if (jobs.length === 0) {
      this.writing = false;
      this.finishCloseIfNeeded();
      return;
    }
    this.writeAll(jobs, jobs[0]!.start);
  }

  /**
   * The next records to write; with rotation only those that fit in the current file, rotating first when
   * the next one does not, so a file grows past maxSize only by a single record larger than maxSize.
   */
  private takeJob(): Job | null {
    let room: number | undefined;
    if (this.maxSize > 0) {
      const first = this.queue.firstSize();
      if (this.size > 0 && this.size + first > this.maxSize) this.rotate();
      room = Math.max(this.maxSize - this.size, first);
    }
    // a failed write left part of a record at the end of the file: end that line first
    const job = this.queue.take(room !== undefined && this.tornTail ? room - 1 : room, this.tornTail);
    if (job !== null) this.tornTail = false;
    return job;
  }

  /** Writes `jobs` in order, the first from `offset`; one write in flight. */
  private writeAll(jobs: Job[], offset: number): void {
    const fd = this.fd;
    const first = jobs[0]!;
    if (fd === null) {
      for (const job of jobs) {
        this.lose(job.records, 'write-failed', job.carries);
        this.queue.release(job);
      }
      this.writing = false;
      return;
    }
    const done = (err: NodeJS.ErrnoException | null, n: number): void => {
      this.inFlight = false;
      this.wakeSettlers();
      if (err) {
        // a short write before the error (a disk filling up) kept the records it completed
        const lost = this.unwritten(first, offset);
        this.lose(lost.records, 'write-failed', lost.carries);
        for (const job of jobs) {
          if (job !== first) this.lose(job.records, 'write-failed', job.carries);
          this.queue.release(job);
        }
        this.fail(`log write failed (${describeFsError(err)}); the relay goes on, lost records are counted`);
        this.writing = false;
        this.finishCloseIfNeeded();
        return;
      }
      this.size += n;
      if (this.outage) {
        this.outage = false;
        this.opts.warn(`log ${this.opts.path} is writable again; the gap is recorded in it`);
      }
      // complete jobs are done; a short write goes on where it stopped (to the file it began in)
      let at = offset;
      while (jobs.length > 0) {
        const job = jobs[0]!;
        if (at + n < job.end) {
          this.writeAll(jobs, at + n);
          return;
        }
        n -= job.end - at;
        this.queue.release(job);
        this.writtenSinceCheck += job.records;
        jobs.shift();
        if (jobs.length > 0) at = jobs[0]!.start;
      }
      // the path stopped naming our file during the write: the next records go to a new one
      if (this.pendingReopen) this.reopenQuietly(true);
      if (this.queue.count > 0 && !this.closed) {
        // more came in during the write: write it now if it is a lot, else after the coalescing delay
        if (this.queue.bytes >= FLUSH_NOW_BYTES) this.flush();
        else this.flushSoon();
      } else {
        this.writing = false;
        this.finishCloseIfNeeded();
      }
    };
    this.inFlight = true;
    if (jobs.length === 1) fs.write(fd, first.buf, offset, first.end - offset, null, done);
    else fs.writev(fd, jobs.map((job, i) => job.buf.subarray(i === 0 ? offset : job.start, job.end)), null, done);
  }

  /** The records of `job` not wholly written when the file took bytes up to `offset`; notes a torn one. */
  private unwritten(job: Job, offset: number): { records: number; carries: number } {
    const left = unwrittenOf(job, offset);
    if (left.torn) this.tornTail = true;
    return left;
  }

  private finishCloseIfNeeded(): void {
    if (!this.closed) return;
    if (this.fd !== null) {
      let job: Job | null = null;
      let at = 0;
      try {
        if (this.queue.count > 0 && this.broken) this.lose(this.queue.dropAll().records, 'write-failed');
        // with rotation the rest goes in file-sized pieces too
        while (!this.broken && (job = this.takeJob()) !== null) {
          for (at = job.start; at < job.end; ) {
            const n = fs.writeSync(this.fd, job.buf, at, job.end - at);
            at += n;
            this.size += n;
          }
          this.queue.release(job);
          job = null;
        }
      } catch (err) {
        // a write that stopped inside the job kept the records it completed
        const lost = (job ? this.unwritten(job, at).records : 0) + this.queue.dropAll().records;
        this.lose(lost, 'write-failed');
        if (!this.outage) this.opts.warn(`log write failed at exit (${describeFsError(err)}); ${lost} records lost`);
        this.outage = true;
      }
      try {
        fs.closeSync(this.fd);
      } catch {
        // already gone
      }
      this.fd = null;
    } else {
      this.queue.dropAll(); // counted when they were written
    }
    const waiters = this.closeWaiters;
    this.closeWaiters = [];
    for (const w of waiters) w();
  }

  /** Counts `n` records lost; `carries`: counts that lost gap records had reported (counted before, not again in the total). */
  private lose(n: number, reason: LossReason, carries = 0): void {
    this.lostSinceReport += n + carries;
    this.lostTotal += n;
    if (!this.lostReason) this.lostReason = reason;
  }

  private fail(message: string): void {
    // one warning per outage: a disk that stays full must not repeat it at every retry
    if (!this.broken && !this.outage) this.opts.warn(message);
    this.broken = true;
    this.outage = true;
    this.retryAt = Date.now() + RETRY_MS;
    // what is queued cannot be written through this fd
    if (this.queue.count > 0) {
      const dropped = this.queue.dropAll();
      this.lose(dropped.records, 'write-failed', dropped.carries);
    }
  }

  private reopen(): boolean {
    if (this.fd !== null) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // ignore
      }
      this.fd = null;
    }
    try {
      this.attach();
      this.broken = false;
      return true;
    } catch {
      this.retryAt = Date.now() + RETRY_MS;
      return false;
    }
  }

  /** The file was deleted or replaced under us: writes would vanish, so open the path anew. */
  private checkPath(): void {
    if (this.closed || this.broken || this.fd === null) return;
    let moved = false;
    try {
      moved = fs.statSync(this.opts.path).ino !== this.ino;
    } catch {
      moved = true;
    }
    if (!moved) {
      this.writtenSinceCheck = 0;
      return;
    }
    // already announced; the reopen waits for the write in flight
    if (this.pendingReopen) return;
    this.opts.warn(`log ${this.opts.path} was removed or replaced while running; reopening it`);
    // records only queued (a write scheduled, none in flight) go to the new file, so the gap is told
    // before the next record, whenever that comes
    if (!this.inFlight) this.reopenQuietly(true);
    else this.pendingReopen = true;
  }

  private pendingReopen = false;

  /** Opens the path anew. `moved`: the path stopped naming our file; records written to a removed file are lost. */
  private reopenQuietly(moved = false): void {
    this.pendingReopen = false;
    const old = this.fd;
    if (moved && old !== null) {
      let removed = true;
      try {
        removed = fs.fstatSync(old).nlink === 0;
      } catch {
        // cannot tell: count them
      }
      // renamed (logrotate) keeps them; removed loses what went there since the path was last seen intact
      if (removed) {
        this.lose(this.writtenSinceCheck, 'file-removed');
        this.removedNotice = true;
      }
    }
    this.writtenSinceCheck = 0;
    try {
      this.attach();
      if (old !== null) fs.closeSync(old);
    } catch (err) {
      this.fd = old;
      this.fail(`cannot reopen log ${this.opts.path} (${describeFsError(err)})`);
    }
  }

  private rotate(): void {
    if (this.fd === null) return;
    try {
      rotateLogFiles(this.opts.path, this.maxFiles);
      this.reopenQuietly();
    } catch (err) {
      this.opts.warn(`log rotation failed (${describeFsError(err)}); writing on`);
    }
  }
}
