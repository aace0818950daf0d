/**
 * What `mcp-tap mcp` may read: the `*.jsonrpc.log` files directly in one directory (or the one log given
 * with --log). An agent names a log by its file name and a session by its id, and either is looked up
 * among what the directory lists — never joined into a path — so no argument reaches a file outside it.
 * Symbolic links in the directory are not followed. I/O edge; summaries are cached per file state.
 */
import { lstat, readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { InputError, TapError } from '../errors.js';
import { lensStage } from '../lens/lenses.js';
import { listSessions, type SessionSummary } from '../log/session-summary.js';
import { escapeControl } from '../text/escape.js';
import { sortSessions } from '../view/ls-table.js';

/** A log the server may read. */
export interface LogEntry {
  /** Its file name: how tools and resources name it. */
  name: string;
  path: string;
  size: number;
  mtimeMs: number;
}

/** A session and the log it is in. */
export interface FoundSession {
  log: LogEntry;
  summary: SessionSummary;
}

/** Where the server reads: a directory of logs, or one log. */
export type Served = { dir: string } | { file: string };

const LOG_SUFFIX = '.jsonrpc.log';

interface Cached {
  key: string;
  sessions: SessionSummary[];
}

export class LogSource {
  private readonly cache = new Map<string, Cached>();
  /** Logs that could not be read at the last listing, with why (told to the agent as warnings). */
  problems: string[] = [];

  constructor(readonly served: Served) {}

  /** The directory (or file) served, for messages. */
  get label(): string {
    return 'dir' in this.served ? resolve(this.served.dir) : resolve(this.served.file);
  }

  /** The logs, most recently written first: regular files only, symbolic links left out. */
  async logs(): Promise<LogEntry[]> {
    if ('file' in this.served) {
      const path = resolve(this.served.file);
      const st = await lstat(path).catch(() => null);
      return st?.isFile() ? [{ name: basename(path), path, size: st.size, mtimeMs: st.mtimeMs }] : [];
    }
    const dir = resolve(this.served.dir);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    const out: LogEntry[] = [];
    for (const name of names) {
      if (!name.endsWith(LOG_SUFFIX) || name.length === LOG_SUFFIX.length) continue;
      const path = join(dir, name);
      const st = await lstat(path).catch(() => null);
      if (st?.isFile()) out.push({ name, path, size: st.size, mtimeMs: st.mtimeMs });
    }
    return out.sort((a, b) => b.mtimeMs - a.mtimeMs || a.name.localeCompare(b.name));
  }

  /** The log of this file name; InputError when the directory lists no such log (whatever the name holds). */
  async log(name: string): Promise<LogEntry> {
    const logs = await this.logs();
    const found = logs.find((l) => l.name === name);
    if (found) return found;
    const some = logs.slice(0, 10).map((l) => l.name);
    throw new InputError(`no log ${JSON.stringify(escapeControl(name))} in ${this.label}${some.length ? `; logs there: ${some.join(', ')}` : ''}`);
  }

  /** Every session of the logs (of one log when named), newest first, as `ls` lists them. */
  async sessions(logName?: string): Promise<FoundSession[]> {
    const logs = logName !== undefined ? [await this.log(logName)] : await this.logs();
    const problems: string[] = [];
    const found: FoundSession[] = [];
    const byPath = new Map<string, LogEntry>();
    for (const log of logs) {
      byPath.set(log.path, log);
      try {
        for (const summary of await this.summaries(log)) found.push({ log, summary });
      } catch (err) {
        // one unreadable or foreign file does not hide the others
        if (!(err instanceof TapError)) throw err;
        problems.push(`skipped ${log.name}: ${err.message}`);
      }
    }
    this.problems = problems;
    if (logName === undefined) for (const path of this.cache.keys()) if (!byPath.has(path)) this.cache.delete(path);
    const order = sortSessions(found.map((f) => f.summary));
    const index = new Map(found.map((f) => [f.summary, f]));
    return order.map((s) => index.get(s)!);
  }

  /**
   * The session `which` names: an id or a unique prefix of one (in the named log, else in any), or
   * undefined / 'last' for the newest. InputError naming the newest sessions when it names none.
   */
  async session(which: string | undefined, logName?: string): Promise<FoundSession> {
    const all = await this.sessions(logName);
    const where = logName !== undefined ? logName : this.label;
    if (all.length === 0) throw new InputError(`no sessions in ${where}`);
    if (which === undefined || which === 'last') return all[0]!;
    const exact = all.filter((f) => f.summary.id === which);
    const matches = exact.length > 0 ? exact : all.filter((f) => f.summary.id.startsWith(which));
    if (matches.length === 1) return matches[0]!;
    const listed = (matches.length > 1 ? matches : all).slice(0, 8).map((f) => `${escapeControl(f.summary.id)} (${f.log.name})`);
    if (matches.length > 1) {
      throw new InputError(`session ${JSON.stringify(escapeControl(which))} is ambiguous${exact.length > 1 ? ' (in several logs: name the log)' : ''}; it matches ${listed.join(', ')}`);
    }
    throw new InputError(`no session ${JSON.stringify(escapeControl(which))} in ${where}; newest sessions: ${listed.join(', ')}`);
  }

  /** The summaries of one log, read again only when the file changed. */
  private async summaries(log: LogEntry): Promise<SessionSummary[]> {
    const key = `${log.size}:${log.mtimeMs}`;
    const hit = this.cache.get(log.path);
    if (hit?.key === key) return hit.sessions;
    const sessions = await listSessions(log.path, { stage: lensStage() });
    this.cache.set(log.path, { key, sessions });
    return sessions;
  }
}
