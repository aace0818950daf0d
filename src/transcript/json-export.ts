/**
 * The JSON and JSON Lines exports: the session's records (redacted by the caller unless --no-redact),
 * produced piece by piece as the records stream in, so a long session is never one huge string.
 */
import type { LogRecord } from '../log/record.js';

type Records = Iterable<LogRecord> | AsyncIterable<LogRecord>;

/** One record per line, as in the log itself. */
export async function* jsonlChunks(records: Records): AsyncGenerator<string> {
  for await (const r of records) yield `${JSON.stringify(r)}\n`;
}

/** One JSON array, one record per line inside it. */
export async function* jsonChunks(records: Records): AsyncGenerator<string> {
  let first = true;
  for await (const r of records) {
    yield `${first ? '[\n' : ',\n'}${JSON.stringify(r)}`;
    first = false;
  }
  yield first ? '[]\n' : '\n]\n';
}
