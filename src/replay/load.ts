/** Reads the one recorded session that replay and mock work from, through src/log/read-log.ts. */
import { InputError, UsageError } from '../errors.js';
import { basename } from 'node:path';
import { findLatestLog, listLogs } from '../log/log-files.js';
import { readRecords, TORN_LAST_LINE } from '../log/read-log.js';
import { resolveSession } from '../log/read-session.js';
import { RecordFile } from './record-file.js';
import { SessionBuilder, type RecordedSession } from './recorded.js';

export interface LoadChoice {
  /** The log file; default the most recently written log in the default log directory that is not a replay's own. */
  file?: string;
  /** 'last' (default), a session id or a unique prefix of one. */
  session?: string;
  /** Told once about lines that are not records. */
  warn: (message: string) => void;
}

/** The newest log that is not the log of a replay (replay-<name>.jsonrpc.log), else the newest log. */
async function defaultLog(): Promise<string> {
  const recorded = (await listLogs()).find((l) => !basename(l.path).startsWith('replay-'));
  return recorded?.path ?? findLatestLog();
}

/**
 * The session's model and the path it came from. Throws InputError when there is nothing to work with.
 * Its messages keep only their index entries; their bodies are read again from the file when asked for
 * (so memory stays bounded whatever the session holds), and a file changed since then gives InputError.
 */
export async function loadSession(choice: LoadChoice, what: 'replay' | 'mock'): Promise<{ path: string; session: RecordedSession }> {
  const which = choice.session ?? 'last';
  if (which === 'all') throw new UsageError(`${what} works on one session; pass --session last or a session id`);
  const path = choice.file ?? (await defaultLog());
  const [s] = await resolveSession(path, which);
  const id = s!.id;
  const file = new RecordFile(path, id);
  const builder = new SessionBuilder();
  let skipped = 0;
  let firstWhy = '';
  for await (const item of readRecords(path)) {
    if (!('record' in item)) {
      if (item.warning === TORN_LAST_LINE) continue;
      if (skipped++ === 0) firstWhy = `line ${item.line}: ${item.warning}`;
      continue;
    }
    if (item.record.session !== id) continue;
    const start = item.start;
    const next = item.next;
    builder.add(item.record, start !== undefined && next !== undefined ? { file, start, length: next - start } : undefined);
  }
  if (skipped > 0) choice.warn(`skipped ${skipped} line${skipped === 1 ? '' : 's'} of ${path} that ${skipped === 1 ? 'is' : 'are'} not records (${firstWhy})`);
  const session = builder.finish();
  if (session.messages.length === 0) throw new InputError(`session ${session.id || which} of ${path} has no JSON-RPC messages to ${what}`);
  return { path, session };
}
