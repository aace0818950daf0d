/**
 * One direction of the relay. Chunks are written to the destination as they arrive, then handed to the
 * observer; the source is paused while the destination is full (backpressure), so memory stays flat.
 */
import type { Readable, Writable } from 'node:stream';

export interface PumpHooks {
  /** A copy of what was relayed; called after the write, never delays it. */
  onChunk: (chunk: Buffer) => void;
  /** The source ended (EOF). */
  onEnd: () => void;
  /** The destination failed (EPIPE: the reader is gone). The pump keeps draining the source. */
  onDestError: (err: NodeJS.ErrnoException) => void;
  /** End the destination when the source ends (default true). */
  endDest?: boolean;
}

/** A running pump. */
export interface Pump {
  bytes: () => number;
  /**
   * Holds the source (true) or lets it go (false) for a reason of the caller's (the analysis is short of
   * room); independent of the destination's backpressure: the source flows when neither holds it.
   */
  hold: (on: boolean) => void;
}

/** Wires source → destination; returns a counter of bytes relayed. */
export function pump(src: Readable, dst: Writable, hooks: PumpHooks): Pump {
  let broken = false;
  let waiting = false;
  let held = false;
  let bytes = 0;
  const resume = () => {
    waiting = false;
    if (!held) src.resume();
  };
  src.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (!broken) {
      if (!dst.write(chunk) && !waiting) {
        waiting = true;
        src.pause();
        dst.once('drain', resume);
      }
    }
    hooks.onChunk(chunk);
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    if (!broken && hooks.endDest !== false) dst.end();
    hooks.onEnd();
  };
  src.once('end', end);
  // a source read error ends this direction like EOF
  src.on('error', end);
  dst.on('error', (err: NodeJS.ErrnoException) => {
    if (broken) return;
    broken = true;
    dst.off('drain', resume);
    if (waiting) resume();
    hooks.onDestError(err);
  });
  // a source paused before the pump existed (spawn-server.ts) starts flowing here
  src.resume();
  const hold = (on: boolean) => {
    if (on === held) return;
    held = on;
    if (on) src.pause();
    else if (!waiting) src.resume();
  };
  return { bytes: () => bytes, hold };
}
