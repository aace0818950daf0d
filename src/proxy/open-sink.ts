/** Opening the log for a proxy run (stdio or HTTP): the file sink, or a sink that keeps nothing. */
import { FileSink } from '../log/file-sink.js';
import type { RecordSink } from './observer.js';

/** A sink that keeps nothing: used for --no-log and when the log cannot be opened. */
export const nullSink: RecordSink = { write: () => true, takeLoss: () => null, close: () => {} };

/** The log options both proxy modes take. */
export interface SinkOptions {
  logPath: string | null;
  maxLogSize: number;
  maxLogFiles: number;
  quiet: boolean;
}

/** The log file's sink; a log that cannot be opened is reported (by FileSink) and the relay runs without it. */
export function openSink(opts: SinkOptions, warn: (message: string) => void): RecordSink {
  if (opts.logPath === null) return nullSink;
  const file = new FileSink({ path: opts.logPath, maxSize: opts.maxLogSize, maxFiles: opts.maxLogFiles, warn });
  if (!file.open()) return nullSink;
  if (!opts.quiet) warn(`logging to ${opts.logPath}`);
  return file;
}
