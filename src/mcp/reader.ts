/**
 * The one way `mcp-tap mcp`'s tools and resources get at the logs, and where everything they show is
 * redacted: every record passes export's RecordRedactor (a fresh one per pass over a log, as export
 * does) before any tool sees it, session summaries and warnings pass the same rules. Tools never open
 * a file or hold a record that did not come through here.
 */
import { buildBaseline, type Baseline } from '../check/baseline.js';
import type { CheckPlan } from '../check/check-options.js';
import { BASELINE_BOUND } from '../check/facts.js';
import { readFacts } from '../check/read-facts.js';
import type { CheckReport } from '../check/report.js';
import { checkLog } from '../check/run-check.js';
import { loadTokenizer, type Tokenizer } from '../lens/context/tokenizer.js';
import { lensStage } from '../lens/lenses.js';
import { readRecords, type RecordItem } from '../log/read-log.js';
import { onlySession } from '../log/read-session.js';
import type { LogRecord } from '../log/record.js';
import { RecordRedactor, redactString, type RedactOptions } from '../transcript/redact.js';
import { redactSummary } from '../transcript/redact-summary.js';
import type { SessionPlan } from '../transcript/sampling.js';
import { sessionPageRecords } from '../transcript/session-page.js';
import type { FoundSession, LogEntry, LogSource } from './log-source.js';

export interface RecordsOptions {
  /** Only this session's records (else every session of the log). */
  session?: string;
  /** Which records are parsed whole (read-log's envelope-only fast path for the others). */
  needsBody?: (head: LogRecord) => boolean;
  /** Told the bytes read so far after every chunk. */
  onProgress?: (bytes: number) => void;
  /** Start at this byte offset, a line start (a search going on from a cursor); lines then count from there. */
  start?: number;
}

export class Reader {
  constructor(
    readonly source: LogSource,
    private readonly rules: RedactOptions,
  ) {}

  /** The served directory (or file), for messages. */
  get label(): string {
    return this.source.label;
  }

  logs(): Promise<LogEntry[]> {
    return this.source.logs();
  }

  /** Sessions newest first, their command lines and server names redacted. */
  async sessions(logName?: string): Promise<FoundSession[]> {
    return (await this.source.sessions(logName)).map((f) => ({ log: f.log, summary: redactSummary(f.summary, this.rules) }));
  }

  /** The session an id, a unique id prefix or 'last' (undefined) names, redacted like `sessions`. */
  async session(which: string | undefined, logName?: string): Promise<FoundSession> {
    const f = await this.source.session(which, logName);
    return { log: f.log, summary: redactSummary(f.summary, this.rules) };
  }

  /** Logs that could not be read at the last listing (redacted: the reason may quote a line). */
  problems(): string[] {
    return this.source.problems.map((p) => this.text(p));
  }

  /** A text the tools show that did not come from a record (a warning, an error message), redacted. */
  text(s: string): string {
    return redactString(s, this.rules);
  }

  /** A fresh record redactor: one per pass, as its state (a private key over several lines) follows the pass. */
  redactor(): RecordRedactor {
    return new RecordRedactor(this.rules);
  }

  /** One pass over a log: its records (of one session when asked) with their line numbers, redacted. */
  async *records(log: LogEntry, opts: RecordsOptions = {}): AsyncGenerator<RecordItem> {
    const redactor = this.redactor();
    // the lenses see the records as logged (a credential is recognised, never repeated), the tools only redacted
    const stage = opts.session !== undefined ? onlySession(lensStage(), opts.session) : lensStage();
    const read = readRecords(log.path, {
      stage,
      ...(opts.needsBody ? { needsBody: opts.needsBody } : {}),
      ...(opts.start ? { start: opts.start } : {}),
      ...(opts.onProgress ? { onProgress: (bytes: number) => opts.onProgress!(bytes) } : {}),
    });
    for await (const item of read) {
      if (!('record' in item)) continue;
      if (opts.session !== undefined && item.record.session !== opts.session) continue;
      yield { record: redactor.next(item.record), line: item.line, ...(item.next !== undefined ? { next: item.next } : {}) };
    }
  }

  /** `check` of one session (options as the CLI parsed them), judged on its redacted records. */
  async check(found: FoundSession, plan: CheckPlan, warn: (m: string) => void): Promise<CheckReport> {
    const redactor = this.redactor();
    return checkLog({ ...plan, file: found.log.path, session: found.summary.id }, warn, (r) => redactor.next(r));
  }

  /** The records the Markdown export of one session shows (sampled when long), redacted. */
  async page(found: FoundSession, warn: (m: string) => void): Promise<{ kept: LogRecord[]; plans: SessionPlan[] }> {
    return sessionPageRecords(found.log.path, { session: found.summary.id, full: false, redactor: () => this.redactor(), tokenizer: await loadTokenizer(), warn });
  }

  /** The baseline of one session (what `diff` compares), from its redacted records. */
  async baseline(found: FoundSession, tokenizer?: Tokenizer): Promise<Baseline> {
    const redactor = this.redactor();
    const facts = await readFacts(found.log.path, { session: found.summary.id, bound: BASELINE_BOUND, transform: (r) => redactor.next(r) });
    return buildBaseline(facts, tokenizer);
  }
}
