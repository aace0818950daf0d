/**
 * The file edge of wrap/unwrap: read a config exactly, keep a backup of the original next to it before
 * the first change, and replace it atomically (temporary file in the same directory, then rename) with
 * the original file mode. Symlinked configs are written through to their target.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../errors.js';
import { openToRead } from '../log/open-to-read.js';

/** Suffix of the backup wrap/unwrap keep next to a config (written once, never overwritten). */
export const BACKUP_SUFFIX = '.mcp-tap.bak';

export function backupPathFor(file: string): string {
  return `${file}${BACKUP_SUFFIX}`;
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}${e.message ? ` (${e.message.replace(/^[A-Z]+: /, '')})` : ''}` : String(err);
}

/** A config file's text, or undefined when it does not exist. Refuses files that are not valid UTF-8 (they could not be written back unchanged). */
export async function readConfigText(file: string): Promise<string | undefined> {
  let buf: Buffer;
  try {
    const fh = await openToRead(file);
    try {
      const st = await fh.stat();
      if (st.isDirectory()) throw new InputError(`cannot read ${file}: it is a directory`);
      if (!st.isFile()) throw new InputError(`cannot read ${file}: it is not a regular file (a FIFO, socket or device)`);
      buf = await fh.readFile();
    } finally {
      await fh.close();
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new InputError(`cannot read ${file}: ${describe(err)}`);
  }
  const text = buf.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buf)) throw new InputError(`cannot edit ${file}: it is not valid UTF-8`);
  return text;
}

/** Text of the backup of a config, if one exists. */
export async function readBackupText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(backupPathFor(file), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Replaces `file` (whose text was `expected` when read) with `text`. Writes the backup first when there
 * is none yet — only once the new text is on disk and the file is known unchanged, and removed again when
 * the replacement fails, so a refused or failed write leaves no backup and a backup always holds the file
 * as it was before a change that was written. Returns the backup path when this call created it.
 */
export async function writeConfigText(file: string, expected: string, text: string): Promise<{ backup?: string }> {
  const target = await fs.realpath(file).catch(() => file);
  const st = await fs.stat(target).catch((err: unknown) => {
    throw new InputError(`cannot edit ${file}: ${describe(err)}`);
  });
  const mode = st.mode & 0o7777;
  const result: { backup?: string } = {};
  const backup = backupPathFor(file);
  const tmp = join(dirname(target), `.${basename(target)}.mcp-tap-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    const now = await fs.readFile(target, 'utf8');
    if (now !== expected) throw new InputError(`${file} changed while mcp-tap was editing it; nothing written, run the command again`);
    try {
      await fs.writeFile(backup, expected, { flag: 'wx', mode });
      await fs.chmod(backup, mode);
      result.backup = backup;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new InputError(`cannot write the backup ${backup}: ${describe(err)}; nothing written`);
    }
    await fs.rename(tmp, target);
  } catch (err) {
    await fs.unlink(tmp).catch(() => {});
    // a backup of an edit that did not happen would later pass for the original
    if (result.backup !== undefined) await fs.unlink(result.backup).catch(() => {});
    if (err instanceof InputError) throw err;
    throw new InputError(`cannot write ${file}: ${describe(err)}`);
  }
  return result;
}
