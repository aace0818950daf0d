/** The page's requests to the UI server (same origin; the cookie carries the token). Browser code. */
import type { BodyAnswer, LiveEvent, LiveRow } from '../live-row.js';

async function ok(res: Response, what: string): Promise<Response> {
  if (!res.ok) throw new Error(`${what}: the server answered ${res.status} ${(await res.text()).trim()}`);
  return res;
}

/** The rows of a session so far. */
export async function fetchRows(log: number, session: string): Promise<LiveRow[]> {
  const res = await ok(await fetch(`/api/rows?log=${log}&session=${encodeURIComponent(session)}`), 'loading the session');
  const text = await res.text();
  const rows: LiveRow[] = [];
  for (const line of text.split('\n')) if (line) rows.push(JSON.parse(line) as LiveRow);
  return rows;
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
