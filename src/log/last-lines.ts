/**
 * Where the last lines of a file start, found by reading it backwards: how `tail -n` and `tail -f` show
 * the end of a large log without reading it from the start.
 */
import { openToRead } from './open-to-read.js';

const BLOCK = 64 * 1024;

/**
 * The byte offset of the start of the last `count` lines of `path` (0 when the file has no more than
 * that). A last line without its LF counts as a line.
 */
export async function offsetOfLastLines(path: string, count: number): Promise<number> {
  const fh = await openToRead(path);
  try {
    const size = (await fh.stat()).size;
    const buf = Buffer.allocUnsafe(BLOCK);
    let end = size;
    let seen = 0;
    // the file's final LF ends the last line; it does not start one
    let skipFinal = true;
    while (end > 0) {
      const start = Math.max(0, end - BLOCK);
      const { bytesRead } = await fh.read(buf, 0, end - start, start);
      for (let i = bytesRead - 1; i >= 0; i--) {
        if (buf[i] !== 0x0a) {
          skipFinal = false;
          continue;
        }
        if (skipFinal) {
          skipFinal = false;
          continue;
        }
        if (++seen === count) return start + i + 1;
      }
      end = start;
    }
    return 0;
  } finally {
    await fh.close();
  }
}
