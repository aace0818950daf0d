/**
 * Log records as `mcp-tap mcp` shows them: a one-line match for search_messages, a whole message for
 * get_message with its body shortened to a byte budget (json-shortener keeps the JSON's shape). Pure;
 * the records are redacted already (src/mcp/reader.ts).
 */
import { jsonShortener } from '../framing/json-shortener.js';
import type { LogRecord, Note } from '../log/record.js';
import { cutText } from '../transcript/shorten-body.js';
import { isoTime } from './context.js';

const PREVIEW_CHARS = 240;
const NOTE_CHARS = 400;

/** Record members that are the envelope, not an event's own fields. */
const ENVELOPE = new Set(['v', 'time', 'session', 'seq', 'from', 'kind', 'level', 'event', 'notes', 'msg', 'raw', 'bytes', 'truncated', 'partial']);

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

function notesOf(r: LogRecord): Note[] | undefined {
  if (!Array.isArray(r.notes) || r.notes.length === 0) return undefined;
  return r.notes.map((n) => ({ code: String(n.code), text: n.text.length > NOTE_CHARS ? `${n.text.slice(0, NOTE_CHARS - 1)}…` : n.text }));
}

/** The members every view of a record has. */
function envelope(r: LogRecord): Obj {
  const notes = notesOf(r);
  return {
    seq: r.seq,
    time: isoTime(r.time) ?? '',
    from: r.from,
    kind: r.kind,
    ...(r.id !== undefined ? { id: r.id } : {}),
    ...(typeof r.method === 'string' ? { method: r.method } : {}),
    ...(typeof r.target === 'string' ? { target: r.target } : {}),
    ...(typeof r.ms === 'number' ? { ms: r.ms } : {}),
    ...(typeof r.reqSeq === 'number' ? { reqSeq: r.reqSeq } : {}),
    ...(r.isError === true ? { isError: true } : {}),
    ...(typeof r.event === 'string' ? { event: r.event } : {}),
    ...(notes ? { notes } : {}),
  };
}

/** An event's own fields (exit code, pending requests…): what it says beside the envelope. */
function eventFields(r: LogRecord): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(r)) if (!ENVELOPE.has(k)) out[k] = v;
  return out;
}

/** What a record says, for a preview: params, result or error of a message; the text of a line. */
function gist(r: LogRecord): unknown {
  if (typeof r.raw === 'string') return r.raw;
  if (r.kind === 'event') return eventFields(r);
  const m = obj(r.msg);
  if (!m) return r.msg;
  if (r.kind === 'error') return m['error'];
  if (r.kind === 'response') return m['result'];
  if (r.kind === 'request' || r.kind === 'notification') return m['params'];
  return r.msg;
}

/** One line of at most PREVIEW_CHARS characters. */
export function previewOf(r: LogRecord): string | undefined {
  const g = gist(r);
  if (g === undefined) return undefined;
  let text: string;
  if (typeof g === 'string') text = g;
  else {
    try {
      text = JSON.stringify(g) ?? '';
    } catch {
      return undefined;
    }
  }
  text = text.replace(/\s+/g, ' ').trim();
  if (text === '' || text === '{}') return undefined;
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

/** A search match: the envelope, where it is, and a preview. */
export function matchView(r: LogRecord, log: string): Obj {
  const preview = previewOf(r);
  return { log, session: r.session, ...envelope(r), ...(preview !== undefined ? { preview } : {}) };
}

/** A JSON value whose text is at most about `maxBytes`: as is when it fits, else shortened with its shape kept. */
export function shrinkJson(value: unknown, maxBytes: number): { value: unknown; shortened: boolean } {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return { value: '[not JSON]', shortened: true };
  }
  if (text === undefined || Buffer.byteLength(text) <= maxBytes) return { value, shortened: false };
  const s = jsonShortener(Math.max(256, maxBytes));
  s.write(Buffer.from(text));
  const out = s.finish();
  return { value: out === null ? '[not JSON]' : JSON.parse(out), shortened: true };
}

/** A whole record for get_message, its body (or text) within `maxBytes`. */
export function messageView(r: LogRecord, line: number, maxBytes: number): Obj {
  const out: Obj = { ...envelope(r), line };
  if (typeof r.bytes === 'number') out['bytes'] = r.bytes;
  if (r.truncated === true) out['loggedShortened'] = true;
  let shortened = false;
  const body = r.kind === 'event' ? eventFields(r) : r.msg;
  if (body !== undefined) {
    const b = shrinkJson(body, maxBytes);
    out['body'] = b.value;
    shortened ||= b.shortened;
  }
  if (typeof r.raw === 'string') {
    const t = cutText(r.raw, Math.max(200, maxBytes));
    out['raw'] = t.text;
    shortened ||= t.shortened;
  }
  if (shortened) out['shortened'] = true;
  return out;
}
