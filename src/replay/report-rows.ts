/**
 * The report's entries of one replay in bounded memory, whatever the session holds: every entry is
 * counted, but only the first LISTED_FAILURES entries that fail (different, missing, unexpected) and the
 * first LISTED_OTHERS of the rest (same, not replayed, not counted) are kept, "first" in report order;
 * the others are only counted as not listed. A kept entry keeps at most KEPT_DIFFERENCES differences,
 * each value shortened to about KEPT_VALUE_BYTES of JSON (as the log shortens: a cut string ends with
 * `…[truncated: N bytes]`), so a replayed payload of megabytes is not held a hundred times.
 */
import { jsonShortener } from '../framing/json-shortener.js';
import type { Difference } from './compare.js';
import { countEntry, emptySummary, type ReplayEntry, type ReplaySummary } from './result.js';

/** Entries that fail, listed at most. */
export const LISTED_FAILURES = 100;
/** Entries that do not fail (same, not replayed, not counted), listed at most. */
export const LISTED_OTHERS = 1000;
/** Differences one entry keeps at most. */
export const KEPT_DIFFERENCES = 20;
/** A difference's recorded or replayed value, as JSON, kept up to about this size. */
export const KEPT_VALUE_BYTES = 2048;

export interface Row {
  entry: ReplayEntry;
  /** Where it sorts: the seq of the recorded message (server requests the recording lacks: between seqs). */
  order: number;
  /** Ties (the elements of one batch): in the order the entries were made. */
  n: number;
}

const before = (a: Row, b: Row): boolean => a.order < b.order || (a.order === b.order && a.n < b.n);

/** A value as the report keeps it: itself, or a shortened copy when its JSON is larger than `max`. */
export function keptValue(v: unknown, max = KEPT_VALUE_BYTES): unknown {
  if (v === undefined || v === null || (typeof v !== 'object' && typeof v !== 'string')) return v;
  let text: string | undefined;
  try {
    text = JSON.stringify(v);
  } catch {
    return v;
  }
  if (text === undefined || text.length <= max) return v; // UTF-16 units ≤ bytes: a cheap first test
  const buf = Buffer.from(text);
  if (buf.length <= max) return v;
  const s = jsonShortener(max);
  s.write(buf);
  const out = s.finish();
  if (out === null) return `…[truncated: ${buf.length} bytes]`;
  return JSON.parse(out) as unknown;
}

function keptDifference(d: Difference): Difference {
  const k: Difference = { ...d };
  if ('recorded' in d) k.recorded = keptValue(d.recorded);
  if ('replayed' in d) k.replayed = keptValue(d.replayed);
  return k;
}

/** The entry as the report keeps it: its first differences, their values shortened. */
function trim(e: ReplayEntry): void {
  const d = e.differences;
  if (d === undefined) return;
  if (d.length > KEPT_DIFFERENCES) e.moreDifferences = d.length - KEPT_DIFFERENCES;
  e.differences = d.slice(0, KEPT_DIFFERENCES).map(keptDifference);
}

export class ReportRows {
  private failures: Row[] = [];
  private others: Row[] = [];
  private summary: ReplaySummary = emptySummary();
  private unlisted: ReplaySummary = emptySummary();
  private anyUnlisted = false;
  private failedCount = 0;
  private tickets = 0;

  constructor(private readonly caps: { failures: number; others: number } = { failures: LISTED_FAILURES, others: LISTED_OTHERS }) {}

  /** The tie-breaker of an entry made now (its place among entries of the same order). */
  ticket(): number {
    return this.tickets++;
  }

  /** One entry, final: counted, and kept if it is among the first of its kind. */
  add(entry: ReplayEntry, order: number, n = this.ticket()): void {
    countEntry(this.summary, entry);
    if (entry.failed) this.failedCount++;
    const list = entry.failed ? this.failures : this.others;
    const cap = entry.failed ? this.caps.failures : this.caps.others;
    const row: Row = { entry, order, n };
    if (list.length >= cap) {
      const last = list[list.length - 1];
      if (last === undefined || !before(row, last)) return this.notListed(entry);
      list.pop();
      this.notListed(last.entry);
    }
    trim(entry);
    // mostly in order: search from the end
    let at = list.length;
    while (at > 0 && before(row, list[at - 1]!)) at--;
    list.splice(at, 0, row);
  }

  private notListed(e: ReplayEntry): void {
    countEntry(this.unlisted, e);
    this.anyUnlisted = true;
  }

  /** A copy to add the last entries to without changing this one. */
  copy(): ReportRows {
    const c = new ReportRows(this.caps);
    c.failures = [...this.failures];
    c.others = [...this.others];
    c.summary = { ...this.summary };
    c.unlisted = { ...this.unlisted };
    c.anyUnlisted = this.anyUnlisted;
    c.failedCount = this.failedCount;
    c.tickets = this.tickets;
    return c;
  }

  /** The kept entries in report order, the totals, how many were not listed (undefined: none), and whether any failed. */
  report(): { entries: ReplayEntry[]; summary: ReplaySummary; notListed: ReplaySummary | undefined; failed: boolean } {
    const rows = [...this.failures, ...this.others].sort((a, b) => a.order - b.order || a.n - b.n);
    return {
      entries: rows.map((r) => r.entry),
      summary: { ...this.summary },
      notListed: this.anyUnlisted ? { ...this.unlisted } : undefined,
      failed: this.failedCount > 0,
    };
  }
}
