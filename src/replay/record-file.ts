/**
 * The records of a session that replay and mock read again from the log file, one at a time, when a
 * message's body is asked for (src/replay/recorded.ts keeps only where each record lies). A few of the
 * latest are kept parsed. A file that changed since it was indexed (rotated, truncated, rewritten) is
 * caught: the bytes at the place must still be the record with the indexed session and seq.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { InputError } from '../errors.js';
import { describeFsError } from '../log/fs-error.js';
import { isLogRecord } from '../log/read-log.js';
import type { LogRecord } from '../log/record.js';

/** Records kept parsed, at most (the latest read). */
const CACHE_RECORDS = 64;
/** Bytes of record lines kept parsed, at most (the latest record is kept whatever its size). */
const CACHE_BYTES = 8 * 1024 * 1024;

export class RecordFile {
  private readonly cache = new Map<number, { record: LogRecord; length: number }>();
  private cachedBytes = 0;

  constructor(
    readonly path: string,
    /** The session every record read must belong to. */
    readonly session: string,
  ) {}

  /** The record of `seq` whose line is the `length` bytes at `start`. Throws InputError when the file no longer holds it there. */
  record(seq: number, start: number, length: number): LogRecord {
    const hit = this.cache.get(start);
    if (hit) {
      // most recently used last
      this.cache.delete(start);
      this.cache.set(start, hit);
      return hit.record;
    }
    const record = this.read(seq, start, length);
    this.cache.set(start, { record, length });
    this.cachedBytes += length;
    for (const [at, e] of this.cache) {
      if (this.cache.size <= 1 || (this.cache.size <= CACHE_RECORDS && this.cachedBytes <= CACHE_BYTES)) break;
      this.cache.delete(at);
      this.cachedBytes -= e.length;
    }
    return record;
  }

  private changed(seq: number, start: number): InputError {
    return new InputError(
      `${this.path} changed after it was read (rotated, truncated or rewritten?): record #${seq} of session ${this.session} is no longer at byte ${start}; run again on a log that is not being written to (or a copy of it)`,
    );
  }

  private read(seq: number, start: number, length: number): LogRecord {
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    let fd: number | undefined;
    try {
      fd = openSync(this.path, 'r');
      while (got < length) {
        const n = readSync(fd, buf, got, length - got, start + got);
        if (n === 0) break;
        got += n;
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw this.changed(seq, start);
      throw new InputError(`cannot read ${this.path} again (${describeFsError(err)})`, { cause: err });
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    if (got < length) throw this.changed(seq, start);
    let end = length;
    if (end > 0 && buf[end - 1] === 0x0a) end--;
    if (end > 0 && buf[end - 1] === 0x0d) end--;
    let value: unknown;
    try {
      value = JSON.parse(buf.toString('utf8', 0, end));
    } catch {
      throw this.changed(seq, start);
    }
    if (!isLogRecord(value) || value.seq !== seq || value.session !== this.session) throw this.changed(seq, start);
    return value;
  }
}
