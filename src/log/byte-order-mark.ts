/**
 * The byte order mark a text file may start with. Logs are UTF-8 without one, but a log passed through a
 * Windows tool may have gained one: UTF-8's (Notepad, PowerShell's `Out-File -Encoding utf8`), which
 * readers skip, or UTF-16's (PowerShell 5's `>`), which makes it no log at all — and says so by name.
 */
import type { FileHandle } from 'node:fs/promises';

/** The mark at the start of the open file: its encoding, or null when there is none. */
export async function byteOrderMark(fh: FileHandle): Promise<'utf-8' | 'utf-16' | null> {
  const head = Buffer.alloc(3);
  const { bytesRead } = await fh.read(head, 0, 3, 0);
  if (bytesRead === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (bytesRead >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return 'utf-16';
  return null;
}

/** Bytes a UTF-8 mark takes at the start of a file. */
export const UTF8_BOM_BYTES = 3;
