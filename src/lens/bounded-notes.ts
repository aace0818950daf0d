/**
 * Bounded lens output: a lens keeps the first `limit` notes of each code in a session and counts the
 * rest, then says how many it left out on the session's `end` record — so a session full of findings
 * costs every reader the same bounded memory and still states its totals (no silent loss).
 */
import type { Note } from '../log/record.js';

/** Notes kept per code and session before the rest are only counted. */
export const NOTES_PER_CODE = 50;

/** One session's budget of notes per code. */
export class NoteBudget {
  private readonly kept = new Map<string, number>();
  private readonly omitted = new Map<string, number>();

  constructor(private readonly limit = NOTES_PER_CODE) {}

  /** The notes that fit the budget; the others are counted. */
  take(notes: readonly Note[]): Note[] {
    const out: Note[] = [];
    for (const n of notes) {
      const k = this.kept.get(n.code) ?? 0;
      if (k < this.limit) {
        this.kept.set(n.code, k + 1);
        out.push(n);
      } else this.omitted.set(n.code, (this.omitted.get(n.code) ?? 0) + 1);
    }
    return out;
  }

  /** One note per code that went over the budget, for the session's last record. */
  summary(): Note[] {
    return [...this.omitted].map(([code, n]) => ({
      code,
      text: `… and ${n} more ${code} finding${n === 1 ? '' : 's'} in this session, not noted one by one (the first ${this.limit} are)`,
    }));
  }
}
