/**
 * Follow a growing file like `tail -F`: hands over each complete line as it is appended, waits for a
 * half-written last line instead of reporting it, starts over when the file is truncated, and when the
 * path is replaced or rotated (another inode), drains the old file to its end before reading the new one
 * from the start — and the rotated files in between, when it was rotated more than once meanwhile. Woken by fs.watch when the platform offers it, and by polling in any case.
 * Memory is bounded by `maxLineBytes` (a longer line is skipped and reported).
 */
import * as fs from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';

export interface FollowHandlers {
  /** One complete line, decoded as UTF-8, without its LF. */
  line(text: string): void;
  /** Called once, the first time the reader has reached the end of the file. */
  caughtUp?(): void;
  /** The file shrank (read again from 0) or the path now names another file (read it from 0). */
  reset?(reason: 'truncated' | 'replaced'): void;
  /** Bytes that never became a line: an unfinished line abandoned at truncation/replacement, or a line too long to keep. */
  dropped?(reason: 'torn' | 'too-long', bytes: number): void;
  /** After every round, when the reader has read all there is and is about to wait (tests wait on it). */
  idle?(): void;
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
  /** Rotated copies (path.1 … path.N) looked at when the file was rotated several times between two rounds. Default 9. */
  maxRotated?: number;
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
    const fh = await open(this.opts.path, 'r');
    await this.adopt(fh, await fh.stat());
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

  private isOurs(st: fs.Stats): boolean {
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
    const maxSteps = (this.opts.maxRotated ?? 9) + 2;
    for (let step = 0; step < maxSteps && !this.opts.signal?.aborted; step++) {
      let st: fs.Stats;
      try {
        st = await stat(this.opts.path);
      } catch {
        return; // removed: keep reading the old file until a new one appears
      }
      if (this.isOurs(st)) return;
      await this.drain(); // whatever the old file got until the switch
      this.abandon();
      if (!(await this.stepToNewer())) return; // try again next round with the old handle
      this.h.reset?.('replaced');
      await this.drain();
    }
  }

  /**
   * Opens the file written after ours. mcp-tap's --max-log-size rotation renames path → path.1 → path.2…;
   * when ours is now path.N, the next newer file is path.(N-1) (or the path itself for N = 1). When ours is
   * not among them (deleted, or replaced by another file), the next one is whatever the path names now.
   * Checks what it opened against what it found, so a rotation in between makes it look again.
   */
  private async stepToNewer(): Promise<boolean> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const next = await this.findNewer();
      let fh: FileHandle;
      try {
        fh = await open(next.name, 'r');
      } catch {
        continue;
      }
      const st = await fh.stat();
      if (next.st && (st.ino !== next.st.ino || st.dev !== next.st.dev)) {
        await fh.close().catch(() => {});
        continue; // the files moved while we looked
      }
      await this.adopt(fh, st);
      this.arm(); // watch what the path names now
      return true;
    }
    return false;
  }

  private async findNewer(): Promise<{ name: string; st?: fs.Stats }> {
    const max = this.opts.maxRotated ?? 9;
    let newer: { name: string; st?: fs.Stats } = { name: this.opts.path };
    try {
      newer = { name: this.opts.path, st: await stat(this.opts.path) };
    } catch {
      // the path is gone for a moment; the checks below still find rotated files
    }
    for (let n = 1; n <= max; n++) {
      const name = `${this.opts.path}.${n}`;
      let st: fs.Stats;
      try {
        st = await stat(name);
      } catch {
        break;
      }
      if (this.isOurs(st)) return newer;
      newer = { name, st };
    }
    return { name: this.opts.path };
  }

  /** Reads from the current position to the end of the file, handing over complete lines. */
  private async drain(): Promise<void> {
    const fh = this.fh!;
    for (;;) {
      if (this.opts.signal?.aborted) return;
      const { bytesRead } = await fh.read(this.buf, 0, CHUNK, this.pos);
      if (bytesRead === 0) return;
      this.pos += bytesRead;
      this.feed(this.buf.subarray(0, bytesRead));
    }
  }

  private feed(chunk: Buffer): void {
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
      this.h.line(line.toString('utf8'));
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
