/** Opening a log for appending the way mcp-tap's logs must be: directory 0700, file 0600, looser modes warned about. */
import * as fs from 'node:fs';
import { dirname } from 'node:path';
import { makeDirSync } from './make-dir.js';
import { NONBLOCK } from './open-to-read.js';

/** Creates the directory 0700 and opens the file 0600 for appending; warns when an existing one is looser. */
export function openLogFile(path: string, warn: (m: string) => void): number {
  const dir = dirname(path);
  makeDirSync(dir);
  let existed = false;
  let probe: number | undefined;
  try {
    const st = fs.statSync(path);
    existed = true;
    if (st.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' });
    // Windows has no POSIX modes (Node reports 0666 for every writable file): access is the ACL's, not ours to judge
    if (st.isFile() && (st.mode & 0o077) !== 0 && process.platform !== 'win32') {
      warn(`log file ${path} is readable by others (mode ${(st.mode & 0o777).toString(8)}); it may hold secrets — chmod 600 it`);
    }
    // the open below would wait, with the relay, for a process to read a FIFO; this one fails at once (ENXIO)
    // when none does, and stays open until the log is, so a reader does not see the end between the two
    if (st.isFIFO() && NONBLOCK !== 0) probe = fs.openSync(path, fs.constants.O_WRONLY | NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT, 0o600);
  } finally {
    if (probe !== undefined) fs.closeSync(probe);
  }
  if (!existed) {
    try {
      fs.fchmodSync(fd, 0o600);
    } catch {
      // not ours to fix (e.g. a filesystem without modes)
    }
  }
  return fd;
}
