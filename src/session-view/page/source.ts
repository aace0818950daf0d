/**
 * Where a session's view gets what it does not hold: the body of a row. The report's rows carry their
 * bodies (an embedded source answers at once); the live UI fetches one when it is opened, redacted
 * unless revealed. Rows themselves are handed to the view (SessionView.open, add) by whichever page
 * reads them: the view never knows where they come from. Types only.
 */
import type { SessionRow } from '../row.js';

/** A body as the view shows it. */
export interface BodyText {
  /** visible text: control characters escaped, JSON pretty-printed */
  text: string;
  /** highlight it as JSON */
  json: boolean;
  /** a line above the body (the live UI: redacted or revealed) */
  head?: { text: string; cls: string };
}

export interface BodySource {
  /** The body of a row: at once when the page holds it, or when fetched. */
  body(row: SessionRow): BodyText | Promise<BodyText>;
}
