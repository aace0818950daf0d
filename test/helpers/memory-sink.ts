/**
 * A record sink that keeps what the observer writes, in memory, as the log file would hold it: a head
 * with its message bytes lent separately is joined back into one line.
 */
import type { RecordSink } from '../../src/proxy/observer.js';

/** The sink; `text()` is everything written so far. */
export function memorySink(): RecordSink & { text: () => string } {
  const parts: string[] = [];
  return {
    text: () => parts.join(''),
    write(text, body) {
      parts.push(body === undefined ? text : `${text}${body.toString('utf8')}}\n`);
      return true;
    },
    takeLoss: () => null,
    close: () => {},
  };
}
