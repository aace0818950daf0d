import type { LogRecord } from './record.js';

/**
 * One record → one JSON line. When the analysis hands over the exact JSON text of the message (a whole,
 * valid UTF-8 line that parsed), it is embedded as it came off the wire instead of being re-serialized:
 * cheaper, and the log keeps ids and numbers exactly as sent.
 */
export function serializeRecord(record: LogRecord, msgText?: string): string {
  if (msgText === undefined) return JSON.stringify(record) + '\n';
  const head = JSON.stringify(record);
  return head.length === 2 ? `{"msg":${msgText}}\n` : `${head.slice(0, -1)},"msg":${msgText}}\n`;
}

/** The record up to and including `"msg":`; the message bytes and `}\n` follow (see FileSink.write). */
export function serializeHead(record: LogRecord): string {
  const head = JSON.stringify(record);
  return head.length === 2 ? '{"msg":' : `${head.slice(0, -1)},"msg":`;
}
