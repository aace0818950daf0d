/**
 * The one row type of a session's view: what the HTML report embeds and what the live UI streams, one
 * compact object per log record, read by the browser view modules (src/session-view/page). Short keys,
 * each documented here: a 200,000-record session is sent as rows. Types only, free of Node and DOM
 * types, so the server (to-row.ts) and the page read one definition.
 */

/** A JSON-RPC id as on the wire (`1` and `"1"` differ); strings redacted like export. */
export type RowId = string | number | null;

/** A finding: its code (public, docs/log-format.md) and its text. */
export interface RowNote {
  code: string;
  text: string;
}

/** One element of a batch record. */
export interface RowItem {
  kind: string;
  id?: RowId;
  method?: string;
  target?: string;
  /** seq of the request an answer element answers */
  reqSeq?: number;
  /** an answer element's latency, ms */
  ms?: number;
  isError?: boolean;
  cancelled?: boolean;
  notes?: RowNote[];
  /** an error element's `code message`, or an isError result's text (short) */
  et?: string;
  /** a request element's progress token (`params._meta.progressToken`) */
  q?: string | number;
}

export interface SessionRow {
  /** seq of the record */
  s: number;
  /** ms since the session's origin (µs precision) */
  t: number;
  /** from: c client, s server, p mcp-tap */
  f: 'c' | 's' | 'p';
  /** kind: request, response, error, notification, batch, invalid, stderr, event */
  k: string;
  /** method */
  m?: string;
  /** target: tool, prompt or resource */
  g?: string;
  /** JSON-RPC id */
  i?: RowId;
  /** seq of the request this answers, or a notification refers to */
  r?: number;
  /** latency, ms (answers; progress and cancel: since the request) */
  d?: number;
  /** a multi-round exchange: ms from its first request to this answer */
  xd?: number;
  /** seq of the request this one retries (multi-round) */
  ro?: number;
  /** the task the record belongs to */
  tk?: string;
  /** seq of the call that created the task (absent on the answer that created it) */
  to?: number;
  /** the task status the record reports */
  ts?: string;
  /** on the record that ended the task: ms since the call that created it */
  td?: number;
  /** flags: E isError, C cancelled, T truncated, P partial, I input required, R refused discovery probe */
  x?: string;
  /** bytes on the wire */
  b?: number;
  /** findings */
  n?: RowNote[];
  /** event name */
  e?: string;
  /** what an event says in words (exit code, lost count, the sign-in chain…); a progress notification's numbers; a log notification's level and text (short) */
  v?: string;
  /** an error answer's `code message`, or an isError result's text (short) */
  et?: string;
  /** how a progress or cancel notification names its request: the progress token, or the cancelled id */
  q?: string | number;
  /** batch elements */
  it?: RowItem[];
  /** the body, when the page holds it (the report): the message, the raw line, or an event's fields */
  y?: unknown;
  /** how to read `y`: t plain text, p pretty text already shortened; absent: a JSON value */
  yt?: 't' | 'p';
  /** `y` was shortened: its full size in characters */
  yb?: number;
}

/** A session as the view shows it, besides its rows. */
export interface SessionInfo {
  id: string;
  name: string;
  /** epoch ms the rows' `t` counts from */
  origin: number;
  /** ms from the origin to the session's end, when known (the report); else the last row's `t` */
  duration?: number;
}

/** Record members that are the envelope, not what an event says. */
const ENVELOPE = new Set(['v', 'time', 'session', 'seq', 'from', 'kind', 'event']);

/** What an event record says beyond its envelope: the body the view shows for it. */
export function eventBody(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(r)) if (!ENVELOPE.has(k)) out[k] = r[k];
  return out;
}
