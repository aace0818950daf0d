/**
 * The resource address of a session: `mcp-tap://session/<id>`, with `?page=N` for the pages of a long
 * transcript and `?log=<file>` when the same id is in several logs. Pure; the id is only ever looked up
 * among the sessions the logs hold, never used as a path.
 */
import { InputError } from '../errors.js';

export const SESSION_URI_PREFIX = 'mcp-tap://session/';
/** The resource template resources/templates/list offers. */
export const SESSION_URI_TEMPLATE = 'mcp-tap://session/{id}';

/** The address of a session's transcript (page 1 unless told). */
export function sessionUri(id: string, opts: { page?: number; log?: string } = {}): string {
  const q = new URLSearchParams();
  if (opts.log !== undefined) q.set('log', opts.log);
  if (opts.page !== undefined && opts.page > 1) q.set('page', String(opts.page));
  const query = q.toString();
  return `${SESSION_URI_PREFIX}${encodeURIComponent(id)}${query ? `?${query}` : ''}`;
}

/** A session address → its id, page and log; InputError for anything else. */
export function parseSessionUri(uri: string): { id: string; page: number; log?: string } {
  const bad = () => new InputError(`not a session resource: ${JSON.stringify(uri.slice(0, 200))} (expected ${SESSION_URI_TEMPLATE})`);
  if (!uri.startsWith(SESSION_URI_PREFIX) || uri.length > 2000) throw bad();
  const rest = uri.slice(SESSION_URI_PREFIX.length);
  const q = rest.indexOf('?');
  const encoded = q === -1 ? rest : rest.slice(0, q);
  if (encoded === '' || encoded.includes('/') || encoded.includes('#')) throw bad();
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    throw bad();
  }
  const params = new URLSearchParams(q === -1 ? '' : rest.slice(q + 1));
  for (const k of params.keys()) if (k !== 'page' && k !== 'log') throw bad();
  const pageText = params.get('page') ?? '1';
  if (!/^[1-9]\d{0,5}$/.test(pageText)) throw bad();
  const log = params.get('log');
  return { id, page: Number(pageText), ...(log !== null && log !== '' ? { log } : {}) };
}
