/**
 * A copy of one HTTP body for the log (pure, incremental): kept whole up to `limit` bytes, past that a
 * head plus the shortener's bounded JSON, so memory never grows with the body. LF and CR become spaces
 * (JSON whitespace) so the message fits one log line; `bytes` stays the body's true size.
 */
import type { Line, Shortener, ShortenerFactory } from '../framing/line-splitter.js';

/** Collects chunks; `finish()` gives the Line the session analyses. */
export class BodyCapture {
  private chunks: Buffer[] = [];
  private held = 0;
  private total = 0;
  private shortener: Shortener | null = null;

  constructor(
    private readonly limit: number,
    private readonly makeShortener?: ShortenerFactory,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.shortener !== null) {
      this.shortener.write(chunk);
      return;
    }
    if (this.total <= this.limit) {
      this.chunks.push(Buffer.from(chunk));
      this.held += chunk.length;
      return;
    }
    this.shortener = (this.makeShortener ?? (() => ({ write() {}, finish: () => null })))(this.limit);
    for (const c of this.chunks) this.shortener.write(c);
    this.shortener.write(chunk);
    const room = this.limit - this.held;
    if (room > 0) this.chunks.push(Buffer.from(chunk.subarray(0, room)));
    this.held = Math.min(this.limit, this.held + chunk.length);
  }

  /** Bytes seen so far. */
  get bytes(): number {
    return this.total;
  }

  finish(): Line {
    const data = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [];
    for (let k = 0; k < data.length; k++) if (data[k] === 0x0a || data[k] === 0x0d) data[k] = 0x20;
    if (this.shortener === null) return { bytes: this.total, data };
    return { bytes: this.total, head: data, shortened: this.shortener.finish() };
  }
}
