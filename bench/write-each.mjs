// One write(2) per message, for the bench's "interactive" client and server (BENCH_WRITES=each): a Node
// stream would gather the messages written in one turn into a single writev, which is not how a host
// sends one tool call at a time. Retries on EAGAIN (a non-blocking pipe that is full) after a short wait.
import { writeSync } from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `text` to `fd` with as few write(2) calls as the pipe allows (one, unless it is full). */
export function writeEach(fd, text) {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err;
      Atomics.wait(pause, 0, 0, 0.2);
    }
  }
}

/** True when the bench asks every peer to write one message per write(2). */
export const WRITE_EACH = process.env.BENCH_WRITES === 'each';
