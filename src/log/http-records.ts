/** Facts about HTTP mode's records that several readers share (pure, no Node types: the pages use it too). */
import type { LogRecord } from './record.js';

/** An `exchange` record with nothing to say beyond the messages around it: tail, the report and the UI leave it out. */
export function isQuietExchange(r: LogRecord): boolean {
  if (r.kind !== 'event' || r.event !== 'exchange') return false;
  return r['notDecoded'] === undefined && r['cut'] !== true && r['error'] === undefined;
}
