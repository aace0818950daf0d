/**
 * The host's side of the relay. stdout is opened as a non-blocking pipe socket when it is a pipe, so a
 * host that stops reading pauses the server (backpressure) instead of blocking mcp-tap's event loop,
 * as process.stdout's synchronous pipe writes would.
 */
import { fstatSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';

/** The writable that carries the server's bytes to the host; nothing else is ever written to it. */
export function openHostStdout(): Writable {
  let pipeLike = false;
  try {
    const st = fstatSync(1);
    pipeLike = st.isFIFO() || st.isSocket();
  } catch {
    pipeLike = false;
  }
  if (pipeLike) {
    try {
      const socket = new Socket({ fd: 1, readable: false, writable: true });
      pipeSockets.add(socket);
      return socket;
    } catch {
      // fall through to process.stdout
    }
  }
  return process.stdout;
}

// Never compare with `process.stdout` once fd 1 has a socket: its getter opens a second handle on fd 1
// and throws EEXIST.
const pipeSockets = new WeakSet<Writable>();

/**
 * Ends the host's stdout once what is buffered for it has been written. Waits as long as the host keeps
 * reading, or until it closes the pipe; gives up when nothing moved for `stallMs` (a host that never reads
 * must not keep us alive). Resolves with the bytes given up on (0 when everything was delivered).
 */
export function flushHostStdout(stdout: Writable, stallMs: number): Promise<number> {
  // files and TTYs (process.stdout): writes were synchronous, nothing is pending
  if (!pipeSockets.has(stdout) || stdout.writableFinished || stdout.destroyed) return Promise.resolve(0);
  return new Promise<number>((resolve) => {
    let last = stdout.writableLength;
    const watchdog = setInterval(() => {
      const now = stdout.writableLength;
      if (now >= last) finish(now);
      last = now;
    }, Math.max(stallMs, 250));
    function finish(left: number): void {
      clearInterval(watchdog);
      resolve(left);
    }
    stdout.once('error', () => finish(0));
    stdout.once('close', () => finish(0));
    stdout.end(() => finish(0));
  });
}
