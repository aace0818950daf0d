/**
 * The log's copy of a compressed body is decoded (the relay forwards it as sent). zlib works
 * asynchronously, so each call takes a `done` that fires once the decoded output for that input has been
 * handed on: the session's steps (http-tap.ts) wait for it and records keep their arrival order. An
 * encoding we cannot decode leaves the copy unanalysed, and the caller says so in the log.
 */
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';

/** The log's copy of one body on its way to the analysis. */
export interface BodyDecoder {
  write(chunk: Buffer, done: () => void): void;
  /** Flushes; `onEnd` has run when `done` fires. */
  end(done: () => void): void;
}

/** A decoder for a Content-Encoding value, identity for none; null for an encoding it cannot decode. */
export function makeDecoder(
  encoding: string | undefined,
  onData: (chunk: Buffer) => void,
  onEnd: () => void,
  onError: (err: Error) => void,
): BodyDecoder | null {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === '' || enc === 'identity') {
    return {
      write: (chunk, done) => {
        onData(chunk);
        done();
      },
      end: (done) => {
        onEnd();
        done();
      },
    };
  }
  let z: Transform;
  if (enc === 'gzip' || enc === 'x-gzip') z = createGunzip();
  else if (enc === 'deflate') z = createInflate();
  else if (enc === 'br') z = createBrotliDecompress();
  else return null;
  let failed = false;
  let ended = false;
  let waitingEnd: (() => void) | null = null;
  // writes whose callback zlib may never call once it has failed: released by the error, so the
  // session's later steps are not held back for good
  const waitingWrites = new Set<() => void>();
  z.on('data', onData);
  z.on('end', () => {
    ended = true;
    onEnd();
    waitingEnd?.();
  });
  z.on('error', (err) => {
    if (failed) return;
    failed = true;
    onError(err);
    for (const done of [...waitingWrites]) done();
    waitingWrites.clear();
    waitingEnd?.();
  });
  return {
    write: (chunk, done) => {
      if (failed) return done();
      let called = false;
      const once = () => {
        if (called) return;
        called = true;
        waitingWrites.delete(once);
        done();
      };
      waitingWrites.add(once);
      z.write(chunk, once);
    },
    end: (done) => {
      if (failed || ended) return done();
      waitingEnd = done;
      z.end();
    },
  };
}
