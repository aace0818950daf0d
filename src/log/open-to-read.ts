/**
 * Opening a file to read without waiting: open(2) of a FIFO that no process writes to blocks until one
 * does (a hang no signal handler can end, the thread pool being stuck in it), and with O_NONBLOCK it
 * returns at once. Reads of a regular file ignore the flag; callers check with fh.stat() that they got one.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** O_NONBLOCK where the platform has it (Windows has no FIFOs in the file system, nor the flag); writers probing a FIFO use it too. */
export const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Opens `path` read-only at once, whatever kind of file it is. */
export function openToRead(path: string): Promise<FileHandle> {
  return open(path, constants.O_RDONLY | NONBLOCK);
}
