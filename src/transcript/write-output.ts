/**
 * The I/O edge of every reader's output: text to a file (atomically, mode 0600 — an export may hold
 * secrets) or to stdout (with backpressure; a closed pipe such as `| head` ends the output quietly).
 * One escaping rule for every destination — terminal, pipe or file, since a file is `cat` to a terminal
 * later: text gets control characters made visible line by line, JSON and markup get them as `\u`
 * escapes.
 */
import { once } from 'node:events';
import { constants } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { TapError } from '../errors.js';
import { describeFsError } from '../log/fs-error.js';
import { escapeControl, escapeDataText } from '../text/escape.js';
import { NONBLOCK } from '../log/open-to-read.js';
import { outputTarget } from './output-target.js';

type Chunks = Iterable<string> | AsyncIterable<string>;

/** What the output is: `text` (lines for people), `data` (JSON, HTML, XML). */
export type OutputKind = 'text' | 'data';

/** Chunks are joined up to about this many characters before a write: one record per write leaves a buffer per record for the GC. */
const WRITE_CHARS = 64 * 1024;

async function* escaped(chunks: Chunks, kind: OutputKind): AsyncGenerator<string> {
  const escape = kind === 'text' ? escapeForTerminal : escapeDataText;
  let held: string[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    const e = escape(chunk);
    held.push(e);
    size += e.length;
    if (size >= WRITE_CHARS) {
      yield held.join('');
      held = [];
      size = 0;
    }
  }
  if (size > 0) yield held.join('');
}

/** Control characters made visible line by line (newlines kept), for text bound for a terminal. */
export function escapeForTerminal(text: string): string {
  return text
    .split('\n')
    .map((line) => escapeControl(line))
    .join('\n');
}

/**
 * Writes the chunks to `path` through a temporary file in the same directory, then renames it into place;
 * a device, FIFO or socket is written in place instead (output-target.ts).
 */
export async function writeFileAtomic(path: string, chunks: Chunks): Promise<void> {
  if (path === '') throw new TapError('USAGE', '-o needs a file name (- for stdout)');
  const to = await outputTarget(path);
  if (!to.atomic) return writeInPlace(path, to.file, to.fifo, chunks);
  const target = to.file;
  if (to.directory) throw new TapError('BAD_INPUT', `cannot write ${path}: it is a directory`);
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fh;
  try {
    fh = await open(tmp, 'wx', 0o600);
  } catch (err) {
    throw new TapError('BAD_INPUT', `cannot write ${path} (${describeFsError(err)})`, { cause: err });
  }
  try {
    for await (const chunk of chunks) await fh.write(chunk);
    await fh.sync();
    await fh.close();
    fh = undefined;
    await rename(tmp, target);
  } catch (err) {
    await fh?.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    if (err instanceof TapError) throw err;
    throw new TapError('BAD_INPUT', `cannot write ${path} (${describeFsError(err)})`, { cause: err });
  }
}

/** Writes the chunks into a file that is not a regular one; a FIFO must have a reader (else ENXIO, not a wait). */
async function writeInPlace(path: string, file: string, fifo: boolean, chunks: Chunks): Promise<void> {
  let probe;
  let fh;
  try {
    if (fifo && NONBLOCK !== 0) probe = await open(file, constants.O_WRONLY | NONBLOCK);
    fh = await open(file, 'w');
  } catch (err) {
    throw new TapError('BAD_INPUT', `cannot write ${path} (${describeFsError(err)})`, { cause: err });
  } finally {
    await probe?.close();
  }
  try {
    for await (const chunk of chunks) await fh.write(chunk);
  } catch (err) {
    if (err instanceof TapError) throw err;
    throw new TapError('BAD_INPUT', `cannot write ${path} (${describeFsError(err)})`, { cause: err });
  } finally {
    await fh.close().catch(() => {});
  }
}

/** Writes the chunks to a stream, waiting for 'drain'; returns quietly when the reader has gone (EPIPE). */
export async function writeStream(out: NodeJS.WritableStream & { isTTY?: boolean }, chunks: Chunks): Promise<void> {
  let gone = false;
  let failure: NodeJS.ErrnoException | undefined;
  // stays attached: a pipe's EPIPE may arrive after the last write returned
  out.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') gone = true;
    else failure = err;
  });
  const check = () => {
    if (failure) throw new TapError('BAD_INPUT', `cannot write the output (${describeFsError(failure)})`, { cause: failure });
  };
  for await (const chunk of chunks) {
    check();
    if (gone) return;
    if (!out.write(chunk)) {
      await Promise.race([once(out, 'drain'), once(out, 'close'), once(out, 'error')]).catch(() => {});
    }
  }
  // the last write's outcome
  await new Promise<void>((resolve) => out.write('', () => resolve()));
  check();
}

/** To `path` when given (and not `-`), else to stdout; escaped as `kind` says, wherever it goes. */
export async function writeOutput(
  path: string | undefined,
  chunks: Chunks,
  stdout: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
  kind: OutputKind = 'text',
): Promise<void> {
  const safe = escaped(chunks, kind);
  if (path !== undefined && path !== '-') await writeFileAtomic(path, safe);
  else await writeStream(stdout, safe);
}
