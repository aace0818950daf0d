/**
 * The log's copy of a compressed body is decoded (the relay forwards it as sent). One decoder per body;
 * an encoding we cannot decode leaves the copy unanalysed, and the caller says so in the log.
 */
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';

/** Copy chunks in, decoded chunks out to `onData`; `end` flushes. Errors reach `onError` once. */
export interface BodyDecoder {
  write(chunk: Buffer): void;
  end(): void;
}

/** A decoder for a Content-Encoding value, identity for none; null for an encoding it cannot decode. */
export function makeDecoder(
  encoding: string | undefined,
  onData: (chunk: Buffer) => void,
  onEnd: () => void,
  onError: (err: Error) => void,
): BodyDecoder | null {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === '' || enc === 'identity') return { write: onData, end: onEnd };
  let z: Gunzip | ReturnType<typeof createInflate> | ReturnType<typeof createBrotliDecompress>;
  if (enc === 'gzip' || enc === 'x-gzip') z = createGunzip();
  else if (enc === 'deflate') z = createInflate();
  else if (enc === 'br') z = createBrotliDecompress();
  else return null;
  let failed = false;
  z.on('data', onData);
  z.on('end', onEnd);
  z.on('error', (err) => {
    if (failed) return;
    failed = true;
    onError(err);
  });
  return {
    write: (chunk) => {
      if (!failed) z.write(chunk);
    },
    end: () => {
      if (!failed) z.end();
    },
  };
}
