/** The page's requests to the UI server (same origin; the cookie carries the token). Browser code. */
import type { SessionRow } from '../../session-view/row.js';
import type { BodyAnswer, LiveEvent } from '../live-row.js';

async function ok(res: Response, what: string): Promise<Response> {
  if (!res.ok) throw new Error(`${what}: the server answered ${res.status} ${(await res.text()).trim()}`);
  return res;
}

/**
 * The rows of a session so far (times since `origin`), handed over a network chunk at a time so a long
 * session fills in as it loads.
 */
export async function fetchRows(log: number, session: string, origin: number, onRows: (rows: SessionRow[]) => void): Promise<void> {
  const res = await ok(await fetch(`/api/rows?log=${log}&session=${encodeURIComponent(session)}&origin=${origin}`), 'loading the session');
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let carry = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = carry + value;
    const end = text.lastIndexOf('\n');
    if (end < 0) {
      carry = text;
      continue;
    }
    carry = text.slice(end + 1);
    onRows(text.slice(0, end).split('\n').filter(Boolean).map((line) => JSON.parse(line) as SessionRow));
  }
  if (carry) onRows([JSON.parse(carry) as SessionRow]);
}

/** One record, redacted unless `reveal`. */
export async function fetchBody(log: number, session: string, seq: number, reveal: boolean): Promise<BodyAnswer> {
  const res = await ok(await fetch(`/api/body?log=${log}&session=${encodeURIComponent(session)}&seq=${seq}&reveal=${reveal ? 1 : 0}`), `loading record #${seq}`);
  return (await res.json()) as BodyAnswer;
}

/** Subscribes to the event stream; `state` hears whether it is connected. EventSource reconnects by itself. */
export function subscribe(onEvent: (ev: LiveEvent) => void, state: (connected: boolean) => void): EventSource {
  const es = new EventSource('/api/events');
  es.onopen = () => state(true);
  es.onerror = () => state(false);
  es.onmessage = (m: MessageEvent<string>) => onEvent(JSON.parse(m.data) as LiveEvent);
  return es;
}
