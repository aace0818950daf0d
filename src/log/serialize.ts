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

/** Strings JSON.stringify would escape (quotes, backslashes, control characters, lone surrogates). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Quoted forms of recent strings: method names, targets, session ids repeat on nearly every record. */
const quotedCache = new Map<string, string>();
const MAX_QUOTED = 256;

function quote(s: string): string {
  const known = quotedCache.get(s);
  if (known !== undefined) return known;
  const q = s.length > 64 || NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
  if (s.length <= 64) {
    if (quotedCache.size >= MAX_QUOTED) quotedCache.clear();
    quotedCache.set(s, q);
  }
  return q;
}

let lastTime = NaN;
let lastTimeText = '';

/**
 * The record up to and including `"msg":`; the message bytes and `}\n` follow (see FileSink.write).
 * The same text JSON.stringify gives (test/unit/serialize.test.ts), built field by field: on the hot path
 * this is a third of JSON.stringify's cost, because records of one chunk share their time and the
 * strings repeat.
 */
export function serializeHead(record: LogRecord): string {
  let out = '{';
  for (const key in record) {
    const v = record[key];
    let text: string;
    switch (typeof v) {
      case 'number':
        if (key === 'time') {
          if (v !== lastTime) {
            lastTime = v;
            lastTimeText = JSON.stringify(v);
          }
          text = lastTimeText;
        } else text = Number.isFinite(v) ? String(v) : 'null';
        break;
      case 'string':
        text = quote(v);
        break;
      case 'boolean':
        text = v ? 'true' : 'false';
        break;
      case 'undefined':
      case 'function':
      case 'symbol':
        continue;
      default: {
        const j = JSON.stringify(v) as string | undefined;
        if (j === undefined) continue;
        text = j;
      }
    }
    out += (out.length === 1 ? '' : ',') + quote(key) + ':' + text;
  }
  return out.length === 1 ? '{"msg":' : out + ',"msg":';
}
