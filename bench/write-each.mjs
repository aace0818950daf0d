// The bench's "interactive" peers (BENCH_WRITES=each): one message per write(2), and one write per turn
// of the event loop, as a host sends tool calls one at a time and a server answers each when it is done.
// A Node stream would gather what one turn writes into a single writev, and writes in one turn arrive
// together anyway: this is how small batches reach a relay. EAGAIN (a full non-blocking pipe) is retried
// after a short wait.
import { writeSync } from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `buf` to `fd` with as few write(2) calls as the pipe allows (one, unless it is full). */
function writeAll(fd, buf) {
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

const queues = new Map();

/** Queues `text` for `fd`: written with its own write(2), in a turn of its own, in order. */
export function writeEach(fd, text) {
  let q = queues.get(fd);
  if (q === undefined) {
    q = { items: [], head: 0, scheduled: false };
    queues.set(fd, q);
  }
  q.items.push(text);
  if (!q.scheduled) {
    q.scheduled = true;
    setImmediate(() => drain(fd, q));
  }
}

function drain(fd, q) {
  writeAll(fd, Buffer.from(q.items[q.head++], 'utf8'));
  if (q.head === q.items.length) {
    q.items = [];
    q.head = 0;
    q.scheduled = false;
  } else setImmediate(() => drain(fd, q));
}

/** Resolves once everything queued for `fd` is written. */
export function flushed(fd) {
  return new Promise((resolve) => {
    const check = () => (queues.get(fd)?.scheduled ? setImmediate(check) : resolve());
    check();
  });
}

/** True when the bench asks every peer to write one message per write(2), a turn each. */
export const WRITE_EACH = process.env.BENCH_WRITES === 'each';
