/** File-system errors as the one-line reasons every command prints (no stack, no Node wording). Pure. */

/** A short reason from an fs error, for the one warning line. */
export function describeFsError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const reasons: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    EISDIR: 'it is a directory',
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a parent is not a directory',
    EDQUOT: 'disk quota exceeded',
    EFBIG: 'file too large (file size limit reached)',
    EIO: 'I/O error',
    ENXIO: 'no process reads this FIFO (or it is a socket or a missing device)',
  };
  if (!e || !e.code) return String(err);
  // Node's messages already start with the code ("EEXIST: file already exists, …")
  const detail = reasons[e.code] ?? e.message.replace(new RegExp(`^${e.code}:\\s*`), '');
  return `${e.code}: ${detail}`;
}
