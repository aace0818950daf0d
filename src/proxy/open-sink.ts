/** Opening the log for a proxy run (stdio or HTTP): the file sink, or a sink that keeps nothing. */
import { FileSink } from '../log/file-sink.js';
import { describeFsError } from '../log/fs-error.js';
import { openLogFile } from '../log/open-log-file.js';
import type { RecordSink } from './observer.js';

/** A sink that keeps nothing: used for --no-log and when the log cannot be opened. */
export const nullSink: RecordSink = { write: () => true, takeLoss: () => null, close: () => {} };

/** The log options both proxy modes take. */
export interface SinkOptions {
  logPath: string | null;
  maxLogSize: number;
  maxLogFiles: number;
  quiet: boolean;
  /**
   * The log file opened on the relay thread (openLogFd), so that it is there, and what it holds, from
   * the first byte relayed; null: that failed and was said, no log. Undefined: the sink opens the path.
   */
  fd?: number | null;
}

/** The log file's sink; a log that cannot be opened is reported (by FileSink) and the relay runs without it. */
export function openSink(opts: SinkOptions, warn: (message: string) => void): RecordSink {
  if (opts.logPath === null || opts.fd === null) return nullSink;
  const file = new FileSink({ path: opts.logPath, maxSize: opts.maxLogSize, maxFiles: opts.maxLogFiles, warn });
  if (!file.open(opts.fd)) return nullSink;
  if (!opts.quiet && opts.fd === undefined) warn(`logging to ${opts.logPath}`);
  return file;
}

/**
 * Opens the log file where the relay starts: it must be there, and be the file the session goes to,
 * from the first byte relayed (the analysis worker that writes it starts a little later), and a log that
 * cannot be opened is said at once. Null when it cannot (said); the relay then runs without a log.
 */
export function openLogFd(opts: SinkOptions, warn: (message: string) => void): number | null {
  if (opts.logPath === null) return null;
  try {
    const fd = openLogFile(opts.logPath, warn);
    if (!opts.quiet) warn(`logging to ${opts.logPath}`);
    return fd;
  } catch (err) {
    warn(`cannot open log ${opts.logPath} (${describeFsError(err)}); relaying without a log`);
    return null;
  }
}
