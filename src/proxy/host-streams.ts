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
      return new Socket({ fd: 1, readable: false, writable: true });
    } catch {
      // fall through to process.stdout
    }
  }
  return process.stdout;
}
