/** Reads a jsonrpc.log written by a test run: one JSON record per line. */
import { readFileSync } from 'node:fs';

export type Rec = Record<string, unknown> & { seq: number; from: string; kind: string; event?: string; session: string };

/** All records in the file, in order; throws on a line that is not JSON (the log must never hold one). */
export function readRecords(path: string | URL): Rec[] {
  const text = readFileSync(path, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l, i) => {
      try {
        return JSON.parse(l) as Rec;
      } catch {
        throw new Error(`log line ${i + 1} is not JSON: ${l.slice(0, 200)}`);
      }
    });
}

/** The events of a log, by name. */
export const events = (recs: Rec[]): string[] => recs.filter((r) => r.kind === 'event').map((r) => String(r.event));
