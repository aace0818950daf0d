/** The per-kind tallies a Session keeps for its end record. Pure. */
import type { Kind } from '../log/record.js';

/** Records per kind, and notes, for the end record (members in this order). */
export class Counts {
  request = 0;
  response = 0;
  error = 0;
  notification = 0;
  batch = 0;
  invalid = 0;
  stderr = 0;
  event = 0;
  notes = 0;

  /** A switch, not `counts[kind]++`: a property looked up by a varying name is slow on the hot path. */
  add(kind: Kind): void {
    switch (kind) {
      case 'request':
        this.request++;
        break;
      case 'response':
        this.response++;
        break;
      case 'error':
        this.error++;
        break;
      case 'notification':
        this.notification++;
        break;
      case 'batch':
        this.batch++;
        break;
      case 'invalid':
        this.invalid++;
        break;
      case 'stderr':
        this.stderr++;
        break;
      case 'event':
        this.event++;
        break;
    }
  }
}
