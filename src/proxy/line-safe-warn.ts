/**
 * mcp-tap's own lines share the host's stderr with the server's: written while the server is in the
 * middle of a line, a warning would cut that line in two (and a host or a person reading stderr line by
 * line would see neither). So a warning waits until the relayed stderr is at a line end — or has ended,
 * or has stayed in the middle of a line with no byte for `maxWaitMs` (a prompt left unfinished). While
 * the server's bytes keep coming its line is still being written, and the warning keeps waiting: a
 * server flooding stderr in writes that end mid-line, slowed on a busy machine, had its line cut by a
 * wait counted from the warning.
 */

/** Warnings kept waiting at most; past it they are written at once. */
const MAX_PENDING = 64;

/** The proxy's warn, kept off the server's unfinished stderr lines; see the file comment. */
export class LineSafeWarn {
  private midLine = false;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly write: (message: string) => void,
    private readonly maxWaitMs = 2000,
  ) {}

  /** Writes `message` now, or once the server's stderr line in progress has ended. */
  readonly warn = (message: string): void => {
    if (!this.midLine) return this.write(message);
    this.pending.push(message);
    if (this.pending.length >= MAX_PENDING) return this.flush();
    if (this.timer === null) {
      this.timer = setTimeout(this.flush, this.maxWaitMs);
      this.timer.unref();
    }
  };

  /** After each chunk of the server's stderr was relayed. */
  relayed(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.midLine = chunk[chunk.length - 1] !== 0x0a;
    if (this.pending.length === 0) return;
    if (!this.midLine) this.flush();
    // the line is still being written: the wait starts again from this byte
    else this.timer?.refresh();
  }

  /** The server's stderr ended: nothing is in progress any more. */
  ended(): void {
    this.midLine = false;
    this.flush();
  }

  private readonly flush = (): void => {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const waiting = this.pending;
    this.pending = [];
    for (const m of waiting) this.write(m);
  };
}
