/**
 * Lenses: reader-side analyses that read what the live analysis does not (message shapes per protocol
 * revision, what the model is shown, what it costs). Pure: one instance per session, fed that session's
 * records in log order; each returns the notes it finds on a record. Readers merge those notes into the
 * record's own, so tail, stats, export, the report, the UI, check, diff and `mcp-tap mcp` show them as
 * they show the analysis' notes (src/lens/apply-lenses.ts). Nothing here runs on the relay's thread.
 */
import type { LogRecord, Note } from '../log/record.js';

/** One session's view through a lens; holds only bounded state (per tool, per open request…). */
export interface Lens {
  /** Whether the lens reads this record's body (`msg`): envelope-only readers load it only then. */
  needsBody(head: LogRecord): boolean;
  /** The notes this record gets, given what the lens saw before it in the session. */
  observe(record: LogRecord): readonly Note[];
}

/**
 * A kind of lens: its name (for docs and `--no-lens`-style switches), the note codes it can add (code →
 * one-line summary; public like the analysis' codes, listed in docs/log-format.md) and how to open it on
 * a session.
 */
export interface LensKind {
  readonly id: string;
  readonly codes: Readonly<Record<string, string>>;
  create(): Lens;
}
