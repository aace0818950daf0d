/** The report's data block as the page script reads it: the sessions with their rows (src/session-view/row.ts). Types only. */
import type { SessionInfo, SessionRow } from '../../session-view/row.js';

export interface ReportSession extends SessionInfo {
  /** ms from the origin to the session's end */
  duration: number;
  rows: SessionRow[];
}

export interface ReportData {
  version: string;
  redacted: boolean;
  sessions: ReportSession[];
}
