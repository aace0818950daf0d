/**
 * Where the debug log's lines go: a file opened as the logs are (0600, in a 0700 directory, a FIFO only
 * when a process reads it), written synchronously so nothing is lost at process.exit. The trace is an aid:
 * a file that cannot be opened is one warning and no trace, a write that fails (a full disk) is one
 * warning and the rest dropped — neither may stop the relay it describes (house rule 1).
 */
import { writeSync } from 'node:fs';
import { describeFsError } from '../log/fs-error.js';
import { openLogFile } from '../log/open-log-file.js';

/** A pino destination: one `write` per line. */
export interface DebugSink {
  write(line: string): void;
}

/** Opens `path` for the trace; null (said with `warn`) when it cannot be. */
export function openDebugSink(path: string, warn: (message: string) => void): DebugSink | null {
  let fd: number;
  try {
    fd = openLogFile(path, warn);
  } catch (err) {
    warn(`cannot open the debug log ${path} (${describeFsError(err)}); going on without the decision trace`);
    return null;
  }
  let failed = false;
  return {
    write(line: string): void {
      if (failed) return;
      try {
        const bytes = Buffer.from(line, 'utf8');
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      } catch (err) {
        failed = true;
        warn(`cannot write the debug log ${path} (${describeFsError(err)}); the rest of the decision trace is dropped`);
      }
    },
  };
}
