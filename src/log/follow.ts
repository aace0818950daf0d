/**
 * Follow a growing file like `tail -F`: hands over each complete line as it is appended, waits for a
 * half-written last line instead of reporting it, starts over when the file is truncated, and when the
 * path is replaced or rotated (another inode), drains the old file to its end before reading the new one
 * from the start — and the rotated files in between, when it was rotated more than once meanwhile (files
 * are told apart by device and inode, so a rotation while it looks skips none). Woken by fs.watch when
 * the platform offers it, and by polling in any case.
 * Memory is bounded by `maxLineBytes` (a longer line is skipped and reported). A handler that returns a
 * promise is waited for (the reader reads no further meanwhile), so a slow destination slows the reading,
 * never fills memory; with `maxLagBytes`, a reader that falls that far behind the end of the file skips
 * ahead and says how many lines it skipped (`skipped`), so a flood never leaves it minutes behind.
 */
import * as fs from 'node:fs';
import { stat, type FileHandle } from 'node:fs/promises';
import { openToRead } from './open-to-read.js';

export interface FollowHandlers {
  /** One complete line, decoded as UTF-8, without its LF; a promise returned is waited for before the next. */
  line(text: string): void | Promise<void>;
  /** Called once, the first time the reader has reached the end of the file. */
  caughtUp?(): void;
  /** The file shrank (read again from 0) or the path now names another file (read it from 0). */
  reset?(reason: 'truncated' | 'replaced'): void;
  /** Bytes that never became a line: an unfinished line abandoned at truncation/replacement, or a line too long to keep. */
  dropped?(reason: 'torn' | 'too-long', bytes: number): void;
  /** After every round, when the reader has read all there is and is about to wait (tests wait on it). */
  idle?(): void;
  /** With maxLagBytes: the reader jumped ahead over `lines` complete lines (`bytes` bytes) it never handed over. */
  skipped?(lines: number, bytes: number): void;
}

export interface FollowOptions {
  path: string;
  /** Polling interval; fs.watch usually wakes the reader sooner. Default 200 ms. */
  pollMs?: number;
  /** Longest line kept; longer ones are skipped (dropped 'too-long'). Default 64 MiB. */
  maxLineBytes?: number;
  /** Stops following; the returned promise then resolves. */
  signal?: AbortSignal;
  /** Use fs.watch as well as polling (default true). */
  watch?: boolean;
  /** Stop at the first end of file instead of waiting for more (plain `tail` without -f). */
  once?: boolean;
  /** Start reading the file first opened at this byte offset (a line start) instead of 0. */
  startAt?: number;
  /** Highest rotated copy (path.N) looked at when the file was rotated several times between two rounds. Default 100. */
  maxRotated?: number;
  /**
   * Once caught up, when more than this many bytes of the file are still unread, skip ahead to about
   * `resumeBytes` before its end (at a line start), counting the lines skipped. Default: never skip.
   */
  maxLagBytes?: number;
  /** Where a skip resumes: this many bytes before the end of the file. Default maxLagBytes / 32. */
  resumeBytes?: number;
}

const CHUNK = 64 * 1024;

/** Follows `opts.path` until the signal aborts (or, with `once`, until the end of the file). Rejects if the file cannot be opened at first. */
export async function followFile(opts: FollowOptions, handlers: FollowHandlers): Promise<void> {
  const f = new Follower(opts, handlers);
  await f.run();
}

class Follower {
  private fh: FileHandle | null = null;
  private ino = -1;
  private dev = -1;
  /** Where ours was last seen: 0 = the path, n = path.n (a lower bound: files only move to higher numbers). */
  private at = 0;
  /** Rounds in a row that found the name just below ours empty. */
  private gapRounds = 0;
  private pos = 0;
  private parts: Buffer[] = [];
  private partBytes = 0;
  private skipping = 0;
  private caughtUp = false;
  private watcher: fs.FSWatcher | null = null;
  private wake: (() => void) | null = null;
  private readonly buf = Buffer.allocUnsafe(CHUNK);
  private readonly pollMs: number;
  private readonly maxLine: number;

  constructor(
    private readonly opts: FollowOptions,
    private readonly h: FollowHandlers,
  ) {
    this.pollMs = opts.pollMs ?? 200;
    this.maxLine = opts.maxLineBytes ?? 64 * 1024 * 1024;
  }

  async run(): Promise<void> {
    await this.openPath();
    const onAbort = () => this.wake?.();
    this.opts.signal?.addEventListener('abort', onAbort);
    try {
      while (!this.opts.signal?.aborted) {
        await this.tick();
        if (!this.caughtUp) {
          this.caughtUp = true;
          this.h.caughtUp?.();
        }
        if (this.opts.once || this.opts.signal?.aborted) break;
        this.h.idle?.();
        await this.sleep();
      }
    } finally {
      this.opts.signal?.removeEventListener('abort', onAbort);
      this.unwatch();
      await this.fh?.close().catch(() => {});
      this.fh = null;
    }
  }

  private async openPath(): Promise<void> {
    const fh = await openToRead(this.opts.path);
    const st = await fh.stat();
    await this.adopt(fh, st);
    if (this.opts.startAt !== undefined && this.opts.startAt <= st.size) this.pos = this.opts.startAt;
    this.arm();
  }

  /** Makes `fh` the file being read, from its start. */
  private async adopt(fh: FileHandle, st: fs.Stats): Promise<void> {
    const old = this.fh;
    this.fh = fh;
    this.ino = st.ino;
    this.dev = st.dev;
    this.pos = 0;
    if (old && old !== fh) await old.close().catch(() => {});
  }

  private isOurs(st: FileId): boolean {
    return st.ino === this.ino && st.dev === this.dev;
  }

  /** One round: notice truncation, read what was appended, move on to newer files when the path was replaced. */
  private async tick(): Promise<void> {
    const size = (await this.fh!.stat()).size;
    if (size < this.pos) {
      this.abandon();
      this.pos = 0;
      this.h.reset?.('truncated');
    }
    await this.drain();
    // each step moves to the next newer file, so several rotations since the last round lose nothing
    const maxSteps = (this.opts.maxRotated ?? 100) + 2;
    for (let step = 0; step < maxSteps && !this.opts.signal?.aborted; step++) {
      let st: fs.Stats;
      try {
        st = await stat(this.opts.path);
      } catch {
        return; // removed: keep reading the old file until a new one appears
      }
      if (this.isOurs(st)) return;
      await this.drain(); // whatever the old file got until the switch
      const next = await this.openNewer();
      if (next === null) return; // nothing newer for certain yet: try again next round with the old handle
      this.abandon();
      await this.adopt(next.fh, next.st);
      this.at = next.at;
      this.arm(); // watch what the path names now
      this.h.reset?.('replaced');
      await this.drain();
    }
  }

  /**
   * Opens the file written after ours. Rotation (mcp-tap's --max-log-size, or logrotate's numbering)
   * renames path → path.1 → path.2 …, highest first, so a file only ever moves to a higher number and
   * never passes another: at any moment, the higher the number, the older the file. Files are told apart
   * by device and inode, never by name: ours is found again from where it was last seen upward, and the
   * file one number below it, seen while ours stays put, is the next newer one (see findNewer). What is
   * opened must be that file, else it looks again. When ours is not among the rotated names (deleted, or
   * replaced by another file), the next one is whatever the path names now.
   */
  private async openNewer(): Promise<{ fh: FileHandle; st: fs.Stats; at: number } | null> {
    for (let attempt = 0; attempt < 50 && !this.opts.signal?.aborted; attempt++) {
      const pick = await this.findNewer();
      if (pick === null) return null;
      if (pick === 'moving') continue;
      let fh: FileHandle;
      try {
        fh = await openToRead(this.nameAt(pick.at));
      } catch {
        continue; // moved on meanwhile
      }
      const st = await fh.stat();
      if (st.ino === pick.id.ino && st.dev === pick.id.dev) return { fh, st, at: pick.at };
      await fh.close().catch(() => {});
    }
    return null;
  }

  /**
   * Where the next newer file is: ours is at q at two moments, and between them q-1 holds file C; then at
   * that moment C and ours were neighbours, so C is the file written right after ours. 'moving' when a
   * rotation got in the way (ask again); null when there is nothing newer yet. An empty q-1 is a rotation
   * half done (or the path renamed and not yet created): wait for the next round — unless it stays empty
   * for several rounds (someone removed that file), then the nearest file below is the next one.
   */
  private async findNewer(): Promise<{ at: number; id: FileId } | 'moving' | null> {
    const q = await this.locateOurs();
    if (q === -1) {
      const id = await this.idAt(0);
      return id === null ? null : { at: 0, id };
    }
    if (q === 0) return null; // ours is the newest
    let at = q - 1;
    let below = await this.idAt(at);
    if (below === null && this.gapRounds >= 3) {
      while (below === null && at > 0) below = await this.idAt(--at);
    }
    const still = await this.idAt(q);
    if (still === null || !this.isOurs(still)) return 'moving';
    if (below === null) {
      if (q > 1) this.gapRounds++;
      return null;
    }
    this.gapRounds = 0;
    return { at, id: below };
  }

  /**
   * The number ours has now, searched from where it was last seen upward (it only moves up, so the search
   * meets it, however it moves meanwhile); -1 when it is not there (two names in a row missing end the
   * search: a rotation in progress leaves only one).
   */
  private async locateOurs(): Promise<number> {
    const max = this.opts.maxRotated ?? 100;
    let missing = 0;
    for (let n = this.at; n <= max; n++) {
      const id = await this.idAt(n);
      if (id === null) {
        if (++missing >= 2) return -1;
        continue;
      }
      missing = 0;
      if (this.isOurs(id)) {
        this.at = n;
        return n;
      }
    }
    return -1;
  }

  private nameAt(n: number): string {
    return n === 0 ? this.opts.path : `${this.opts.path}.${n}`;
  }

  private async idAt(n: number): Promise<FileId | null> {
    try {
      const st = await stat(this.nameAt(n));
      return { ino: st.ino, dev: st.dev };
    } catch {
      return null;
    }
  }

  /** Reads from the current position to the end of the file, handing over complete lines. */
  private async drain(): Promise<void> {
    const fh = this.fh!;
    const lines: string[] = [];
    for (;;) {
      if (this.opts.signal?.aborted) return;
      const { bytesRead } = await fh.read(this.buf, 0, CHUNK, this.pos);
      if (bytesRead === 0) return;
      this.pos += bytesRead;
      this.feed(this.buf.subarray(0, bytesRead), lines);
      for (const text of lines) {
        const wait = this.h.line(text);
        if (wait) await wait;
      }
      lines.length = 0;
      if (this.caughtUp && this.opts.maxLagBytes !== undefined) await this.keepUp(fh);
    }
  }

  /** When the unread rest of the file is longer than maxLagBytes: skips to a line start near its end. */
  private async keepUp(fh: FileHandle): Promise<void> {
    const max = this.opts.maxLagBytes!;
    const size = (await fh.stat()).size;
    if (size - this.pos <= max) return;
    const target = size - (this.opts.resumeBytes ?? Math.floor(max / 32));
    // count the line ends up to the target, then to the first one past it (or the last one in the file)
    let at = this.pos;
    let lines = 0;
    let resume = -1;
    let linesAtResume = 0;
    while (at < size) {
      const { bytesRead } = await fh.read(this.buf, 0, Math.min(CHUNK, size - at), at);
      if (bytesRead === 0) break;
      let i = this.buf.indexOf(0x0a, 0);
      while (i !== -1 && i < bytesRead) {
        lines++;
        resume = at + i + 1;
        linesAtResume = lines;
        if (resume >= target) break;
        i = this.buf.indexOf(0x0a, i + 1);
      }
      if (resume >= target) break;
      at += bytesRead;
    }
    if (resume === -1) return; // not one line end: nothing to skip yet
    const bytes = this.partBytes + this.skipping + (resume - this.pos);
    this.parts = [];
    this.partBytes = 0;
    this.skipping = 0;
    this.pos = resume;
    this.h.skipped?.(linesAtResume, bytes);
  }

  private feed(chunk: Buffer, out: string[]): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.skipping > 0) {
        this.h.dropped?.('too-long', this.skipping + piece.length);
        this.skipping = 0;
        continue;
      }
      let line: Buffer;
      if (this.partBytes > 0) {
        this.parts.push(piece);
        line = Buffer.concat(this.parts, this.partBytes + piece.length);
        this.parts = [];
        this.partBytes = 0;
      } else line = piece;
      if (line.length > this.maxLine) {
        this.h.dropped?.('too-long', line.length);
        continue;
      }
      out.push(line.toString('utf8'));
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.skipping > 0) this.skipping += rest.length;
      else if (this.partBytes + rest.length > this.maxLine) {
        this.skipping = this.partBytes + rest.length;
        this.parts = [];
        this.partBytes = 0;
      } else {
        this.parts.push(Buffer.from(rest)); // copy: the read buffer is reused
        this.partBytes += rest.length;
      }
    }
  }

  /** An unfinished line that will never be finished (its file was truncated or replaced). */
  private abandon(): void {
    const bytes = this.partBytes + this.skipping;
    this.parts = [];
    this.partBytes = 0;
    this.skipping = 0;
    if (bytes > 0) this.h.dropped?.('torn', bytes);
  }

  private arm(): void {
    this.unwatch();
    if (this.opts.watch === false || this.opts.once) return;
    try {
      this.watcher = fs.watch(this.opts.path, { persistent: false }, () => this.wake?.());
      this.watcher.on('error', () => this.unwatch());
    } catch {
      this.watcher = null; // polling alone will do
    }
  }

  private unwatch(): void {
    try {
      this.watcher?.close();
    } catch {
      // already closed
    }
    this.watcher = null;
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, this.pollMs);
      function done(): void {
        clearTimeout(t);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}

/** A file, whatever its name: device and inode. */
interface FileId {
  ino: number;
  dev: number;
}
