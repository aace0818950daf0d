/**
 * The reader stage that runs lenses beside read-log: records pass through in order, each gets the notes
 * every lens finds on it appended to its own `notes` (and the warning level notes give a record). One lens
 * instance per session, closed at the session's `end` event; sessions that never end (a crash, a live
 * log) are closed oldest first past `maxSessions`, so memory is bounded by that, not by the log. Pure.
 */
import { WARN } from '../log/level.js';
import type { RecordStage } from '../log/read-log.js';
import type { LogRecord, Note } from '../log/record.js';
import type { Lens, LensKind } from './lens.js';

/** Sessions whose lenses stay open at once (interleaved sessions of one log are rare; each is small). */
export const MAX_OPEN_SESSIONS = 256;

/** Runs `kinds` over records of any number of interleaved sessions. */
export class LensStage implements RecordStage {
  private readonly open = new Map<string, Lens[]>();

  constructor(
    private readonly kinds: readonly LensKind[],
    private readonly maxSessions = MAX_OPEN_SESSIONS,
  ) {}

  /** Whether any lens needs this record's body (read-log or-s it with the reader's own rule). */
  needsBody(head: LogRecord): boolean {
    if (this.kinds.length === 0) return false;
    return this.lensesOf(head.session).some((l) => l.needsBody(head));
  }

  /** The record with the lenses' notes appended (the same object, mutated; readers own their records). */
  apply(record: LogRecord): LogRecord {
    if (this.kinds.length === 0) return record;
    const lenses = this.lensesOf(record.session);
    let added: Note[] | undefined;
    for (const lens of lenses) {
      const found = lens.observe(record);
      if (found.length > 0) (added ??= []).push(...found);
    }
    if (added) {
      record.notes = Array.isArray(record.notes) ? [...record.notes, ...added] : added;
      // as the analysis levels a record with notes (src/log/level.ts), so `--json | jq 'select(.level>=40)'` agrees
      if (typeof record.level === 'number' && record.level < WARN) record.level = WARN;
    }
    if (record.kind === 'event' && record.event === 'end') this.open.delete(record.session);
    return record;
  }

  private lensesOf(session: string): Lens[] {
    let lenses = this.open.get(session);
    if (!lenses) {
      lenses = this.kinds.map((k) => k.create());
      this.open.set(session, lenses);
      if (this.open.size > this.maxSessions) {
        const oldest = this.open.keys().next().value;
        if (oldest !== undefined) this.open.delete(oldest);
      }
    }
    return lenses;
  }
}
