/**
 * The reader stage that runs lenses beside read-log: records pass through in order, each gets the notes
 * every lens finds on it appended to its own `notes`. One lens instance per session, closed at the
 * session's `end` event, so memory is bounded by the sessions open at once, not by the log.
 */
import type { LogRecord, Note } from '../log/record.js';
import type { Lens, LensKind } from './lens.js';

/** Runs `kinds` over records of any number of interleaved sessions. */
export class LensStage {
  private readonly open = new Map<string, Lens[]>();

  constructor(private readonly kinds: readonly LensKind[]) {}

  /** Whether any lens needs this record's body (pass to readRecords' `needsBody`, or-ed with the reader's own). */
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
    if (added) record.notes = record.notes ? [...record.notes, ...added] : added;
    if (record.kind === 'event' && record.event === 'end') this.open.delete(record.session);
    return record;
  }

  private lensesOf(session: string): Lens[] {
    let lenses = this.open.get(session);
    if (!lenses) {
      lenses = this.kinds.map((k) => k.create());
      this.open.set(session, lenses);
    }
    return lenses;
  }
}
