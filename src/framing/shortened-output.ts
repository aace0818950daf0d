/** The shortener's output: a byte buffer that grows by doubling up to the shortener's budget. Pure. */

/** Bytes appended one value at a time; text() is the result. */
export class ShortenedOutput {
  private buf: Buffer;
  /** Bytes written so far. */
  len = 0;

  constructor(initial: number) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  put(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }

  putBytes(src: Buffer, start: number, end: number): void {
    this.ensure(end - start);
    this.len += src.copy(this.buf, this.len, start, end);
  }

  putAscii(s: string): void {
    this.ensure(s.length);
    this.len += this.buf.write(s, this.len, 'latin1');
  }

  text(): string {
    return this.buf.toString('utf8', 0, this.len);
  }

  private ensure(n: number): void {
    const need = this.len + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
}
