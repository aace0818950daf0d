/**
 * Which session of a log a reader means ('all', 'last', an id or a unique prefix), and that session's
 * records in file order, in two bounded passes.
 */
import { UsageError } from '../errors.js';
import { escapeControl } from '../text/escape.js';
import { LogNotUsable, readRecords, type ReadOptions, type RecordStage, type WarningItem } from './read-log.js';
import type { LogRecord } from './record.js';

const noBody = (): boolean => false;

/** The session ids of the log, in the order they first appear (one cheap pass: no record is parsed whole). */
async function listSessionIds(path: string, opts: ReadOptions): Promise<Array<{ id: string }>> {
  const ids = new Set<string>();
  for await (const item of readRecords(path, { ...opts, sessionsOnly: true, needsBody: noBody })) if ('record' in item) ids.add(item.record.session);
  return [...ids].map((id) => ({ id }));
}

/**
 * Which session `which` names: 'all', 'last' (the session that started last in the file), an id, or
 * a unique prefix of one. Throws LogNotUsable listing the sessions when it names none.
 */
export async function resolveSession(path: string, which: string, opts: ReadOptions = {}): Promise<Array<{ id: string }>> {
  // an empty prefix would match every session: one session, silently; several, "prefix  is ambiguous"
  if (which === '') throw new UsageError('--session is empty: give last, or a session id or its prefix (mcp-tap ls lists them)');
  const sessions = await listSessionIds(path, opts);
  if (which === 'all') return sessions;
  if (sessions.length === 0) throw new LogNotUsable(`no sessions in ${path}`, path, 'no-session');
  if (which === 'last') return [sessions.at(-1)!];
  const exact = sessions.find((s) => s.id === which);
  if (exact) return [exact];
  const byPrefix = sessions.filter((s) => s.id.startsWith(which));
  if (byPrefix.length === 1) return byPrefix;
  const shown = (byPrefix.length > 1 ? byPrefix : sessions).slice(-10).map((s) => escapeControl(s.id));
  const total = byPrefix.length > 1 ? byPrefix.length : sessions.length;
  const more = total > shown.length ? ` (and ${total - shown.length} more)` : '';
  const what = byPrefix.length > 1 ? `session prefix ${escapeControl(which)} is ambiguous in ${path}; it matches` : `no session ${escapeControl(which)} in ${path}; sessions there`;
  throw new LogNotUsable(`${what}: ${shown.join(', ')}${more}`, path, 'no-session');
}

export interface SessionReadOptions extends ReadOptions {
  /** `which` is an exact session id already resolved (by resolveSession): no pass to find it. */
  resolved?: boolean;
  /** Lines that did not yield a record (they belong to no known session, so all of them are reported). */
  onWarning?: (w: WarningItem) => void;
}

/**
 * The records of one session ('last', an id or a unique id prefix) or of all sessions ('all'), in file
 * order. Two passes over the file for a single session, so memory stays bounded.
 */
export async function* readSession(path: string, which: string, opts: SessionReadOptions = {}): AsyncGenerator<LogRecord> {
  let id: string | null = which === 'all' ? null : which;
  if (which !== 'all' && opts.resolved !== true) {
    // the first pass only finds the session; its warnings are reported once, by the second pass
    const { onWarning: _reportedLater, onProgress: _shownOnce, needsBody: _wholeLater, stage: _appliedLater, ...firstPass } = opts;
    const [s] = await resolveSession(path, which, firstPass);
    id = s!.id;
  }
  const stage = opts.stage && id !== null ? onlySession(opts.stage, id) : opts.stage;
  for await (const item of readRecords(path, { ...opts, ...(stage ? { stage } : {}) })) {
    if (!('record' in item)) {
      opts.onWarning?.(item);
      continue;
    }
    if (id === null || item.record.session === id) yield item.record;
  }
}

/** `stage` for the records of one session only: the others are neither read whole nor passed to it. */
export function onlySession(stage: RecordStage, session: string): RecordStage {
  return {
    needsBody: (head) => head.session === session && stage.needsBody(head),
    apply: (record) => (record.session === session ? stage.apply(record) : record),
  };
}
