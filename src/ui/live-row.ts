/**
 * The shapes the live UI sends to its page: one card per session, the session's rows (the session
 * view's SessionRow, without bodies: bodies are fetched on demand, redacted), and the server-sent events
 * that carry them. Pure and free of Node types: the page (src/ui/page) imports these types too, so both
 * sides read one definition.
 */
import type { SessionRow } from '../session-view/row.js';


/** How a session stands. `died`: it ended by a signal or was killed, or its log stops without an end record. */
export type SessionState = 'running' | 'exited' | 'died';

/** One session of one log, as the session list shows it. */
export interface SessionCard {
  /** Which log (index into the catalog the server was given; never a path the page could choose). */
  log: number;
  /** The log's file name, for the person. */
  file: string;
  session: string;
  server: string;
  /** Epoch ms of the session's first record: the origin its rows' times count from. */
  start: number;
  last: number;
  state: SessionState;
  exitCode?: number | null;
  exitSignal?: string | null;
  /** mcp-tap's pid (from the start record): a running session whose mcp-tap is gone was killed. */
  pid?: number;
  /** Set when the state is `died` because mcp-tap itself was killed (no end record, its process gone). */
  killed?: true;
  records: number;
  requests: number;
  errors: number;
  findings: number;
  /** Latencies of the latest answers (ms), oldest first, for the sparkline. */
  latency: number[];
  /** Tokens (o200k_base) before the first message — tool definitions and instructions — and of the tool results so far. */
  tokens?: { context: number; results: number };
}

/** What the event stream carries. */
export type LiveEvent =
  | { type: 'hello'; cards: SessionCard[] }
  | { type: 'cards'; cards: SessionCard[] }
  /** Rows' times count from the card's `start`. */
  | { type: 'rows'; log: number; session: string; rows: SessionRow[] }
  /** Rows of a session this page did not get: it read slower than they came (reload the session for them). */
  | { type: 'skipped'; log: number; session: string; rows: number }
  | { type: 'problem'; text: string };

/** Answers of /api/body. */
export interface BodyAnswer {
  redacted: boolean;
  record: unknown;
}
