/**
 * Where export and stats get their records: the named log (or the most recent one) and the chosen
 * session(s), through src/log/read-log.ts. Lines that are not records are counted and reported once.
 */
import { findLatestLog, readSession, TORN_LAST_LINE } from '../log/read-log.js';
import type { LogRecord } from '../log/record.js';

export interface InputChoice {
  /** A log file; default the most recently written log in the default directory. */
  file?: string;
  /** 'last' (default), 'all', a session id or a unique prefix. */
  session?: string;
  /** Told once about skipped lines (a torn last line of a live log is not worth a word). */
  warn: (message: string) => void;
}

/** The path actually read (for messages) and its records, in file order. */
export async function openInput(choice: InputChoice): Promise<{ path: string; records: AsyncGenerator<LogRecord> }> {
  const path = choice.file ?? (await findLatestLog());
  let skipped = 0;
  let firstWhy = '';
  async function* gen(): AsyncGenerator<LogRecord> {
    yield* readSession(path, choice.session ?? 'last', {
      onWarning: (w) => {
        if (w.warning === TORN_LAST_LINE) return;
        if (skipped++ === 0) firstWhy = `line ${w.line}: ${w.warning}`;
      },
    });
    if (skipped > 0) choice.warn(`skipped ${skipped} line${skipped === 1 ? '' : 's'} of ${path} that ${skipped === 1 ? 'is' : 'are'} not records (${firstWhy})`);
  }
  return { path, records: gen() };
}

/** Collects an async sequence (a session's records are bounded by the log's per-message limit). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of items) out.push(x);
  return out;
}
