/**
 * Where export and stats get their records: the named log (or the most recent one) and the chosen
 * session(s), through src/log/read-log.ts. Lines that are not records are counted and reported once; a
 * torn last line (a log cut inside a record, or one still being written) gets a warning of its own.
 * Records carry the lenses' notes beside the analysis' own.
 */
import type { LensKind } from '../lens/lens.js';
import { lensStage } from '../lens/lenses.js';
import { findLatestLog } from '../log/log-files.js';
import { TORN_LAST_LINE, tornLastLineWarning } from '../log/read-log.js';
import { readSession } from '../log/read-session.js';
import { escapeControl } from '../text/escape.js';
import type { LogRecord } from '../log/record.js';

export interface InputChoice {
  /** A log file; default the most recently written log in the default directory. */
  file?: string;
  /** 'last' (default), 'all', a session id or a unique prefix. */
  session?: string;
  /** Told once about skipped lines, and once about a torn last line. */
  warn: (message: string) => void;
  /** Parse only the envelope of records for which this says false (see ReadOptions.needsBody). */
  needsBody?: (head: LogRecord) => boolean;
  /** `session` is an exact id from resolveSession (no pass to find it). */
  resolved?: boolean;
  /** Told the bytes read and records read so far (progress lines). */
  onProgress?: (bytes: number, records: number) => void;
  /** The lenses whose notes the records get (default: every lens, src/lens/lenses.ts). */
  lenses?: readonly LensKind[];
}

/** The path actually read (for messages) and its records, in file order. */
export async function openInput(choice: InputChoice): Promise<{ path: string; records: AsyncGenerator<LogRecord> }> {
  const path = choice.file ?? (await findLatestLog());
  let skipped = 0;
  let firstWhy = '';
  let torn: number | null = null;
  async function* gen(): AsyncGenerator<LogRecord> {
    yield* readSession(path, choice.session ?? 'last', {
      ...(choice.needsBody ? { needsBody: choice.needsBody } : {}),
      ...(choice.resolved ? { resolved: true } : {}),
      ...(choice.onProgress ? { onProgress: choice.onProgress } : {}),
      stage: lensStage(choice.lenses),
      onWarning: (w) => {
        if (w.warning === TORN_LAST_LINE) torn = w.line;
        else if (skipped++ === 0) firstWhy = `line ${w.line}: ${w.warning}`;
      },
    });
    if (skipped > 0) choice.warn(`skipped ${skipped} line${skipped === 1 ? '' : 's'} of ${escapeControl(path)} that ${skipped === 1 ? 'is' : 'are'} not records (${firstWhy})`);
    if (torn !== null) choice.warn(tornLastLineWarning(path, torn));
  }
  return { path, records: gen() };
}

/** Collects an async sequence (a session's records are bounded by the log's per-message limit). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of items) out.push(x);
  return out;
}
