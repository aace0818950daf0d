/**
 * The live UI's reader: follows every log it was pointed at (the files named, and every log of the log
 * directory, also those created later) with the follow code of `tail -f`, folds records into session
 * cards, and hands increments (changed cards, new rows) to listeners, batched so a busy server costs a
 * few messages a second, not one per record. The logs are known by index; only these files are read.
 */
import { setMaxListeners } from 'node:events';
import { basename, resolve } from 'node:path';
import type { LensKind } from '../lens/lens.js';
import { lensStage } from '../lens/lenses.js';
import { followFile } from '../log/follow.js';
import type { Tokenizer } from '../lens/context/tokenizer.js';
import type { LogRecord } from '../log/record.js';
import { watchLogDir } from '../log/watch-dir.js';
import type { RedactOptions } from '../transcript/redact.js';
import { parseLogLine } from '../view/tail-run.js';
import type { LiveEvent } from './live-row.js';
import { SessionCards } from './session-cards.js';
import { isQuietExchange } from '../log/http-records.js';
import type { SessionRow } from '../session-view/row.js';
import { toRow, type RedactText } from '../session-view/to-row.js';
import { rowRedactor } from './row-redact.js';

export interface LogWatchOptions {
  /** The log directory to watch (new logs are picked up); undefined: only `files`. */
  dir?: string;
  files: readonly string[];
  /** Export's redaction options, for the strings rows carry. */
  redact?: RedactOptions;
  pollMs?: number;
  /** How often batched increments go out (ms); default 100. */
  flushMs?: number;
  /** The lenses whose notes cards and rows count and show (default: every lens, src/lens/lenses.ts). */
  lenses?: readonly LensKind[];
  /** Counts the tokens cards show (context before the first message, results); none: cards carry no tokens. */
  tokenizer?: Tokenizer;
  signal: AbortSignal;
}

type Listener = (ev: LiveEvent) => void;

/** Rows held for the next flush; a flood reaching it is flushed at once (bounded memory between flushes). */
const MAX_PENDING_ROWS = 5000;

export class LogWatch {
  /** Index → absolute path: the only files the UI reads. */
  readonly logs: string[] = [];
  private readonly cards: SessionCards;
  private readonly listeners = new Set<Listener>();
  private pendingRows = new Map<string, { log: number; session: string; rows: SessionRow[] }>();
  private readonly redact: RedactText;
  private pendingCount = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly problems: string[] = [];

  constructor(private readonly opts: LogWatchOptions) {
    this.cards = new SessionCards(opts.tokenizer);
    this.redact = rowRedactor(opts.redact);
    // one abort listener per followed log: many logs are expected, not a leak
    setMaxListeners(0, opts.signal);
  }

  /** Starts following; resolves once the logs known now have been read to their end. */
  async start(): Promise<void> {
    const first: Promise<void>[] = [];
    for (const f of this.opts.files) first.push(this.add(resolve(f), false));
    if (this.opts.dir !== undefined) {
      let initial = true;
      const ready = new Promise<void>((done) => {
        const ready = () => {
          initial = false;
          done();
        };
        void watchLogDir({ dir: this.opts.dir!, pollMs: this.opts.pollMs, signal: this.opts.signal, ready }, (path) => {
          if (this.logs.includes(path)) return;
          const p = this.add(path, !initial);
          if (initial) first.push(p);
        }).catch((err: unknown) => {
          this.problem(`cannot watch ${this.opts.dir}: ${(err as Error).message}`);
          ready();
        });
      });
      await ready;
    }
    await Promise.all(first);
    let ticks = 0;
    this.timer = setInterval(() => {
      // about once a second: a session whose mcp-tap was killed (no end record will come) stops being "running"
      if (++ticks % Math.max(1, Math.round(1000 / (this.opts.flushMs ?? 100))) === 0) this.cards.reap();
      this.flush();
    }, this.opts.flushMs ?? 100);
    this.timer.unref();
    this.opts.signal.addEventListener('abort', () => {
      if (this.timer) clearInterval(this.timer);
    });
  }

  /** Every session card now (newest first). */
  snapshot(): LiveEvent {
    this.cards.reap();
    this.cards.takeChanged();
    return { type: 'hello', cards: this.cards.all() };
  }

  /** Problems met so far (unreadable logs): the page shows them. */
  problemList(): readonly string[] {
    return this.problems;
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows one more log; rows are streamed from its start when it appeared after the UI started. */
  private add(path: string, late: boolean): Promise<void> {
    const log = this.logs.length;
    this.logs.push(path);
    const file = basename(path);
    let live = late;
    // the lenses run here, in the UI's process: never on the relay's
    let stage = lensStage(this.opts.lenses);
    return new Promise<void>((caughtUp) => {
      followFile(
        { path, signal: this.opts.signal, pollMs: this.opts.pollMs },
        {
          line: (text) => {
            const r = parseLogLine(text);
            if (r === null || typeof r === 'string') return;
            this.record(log, file, stage.apply(r), live);
          },
          reset: () => {
            stage = lensStage(this.opts.lenses);
          },
          caughtUp: () => {
            live = true;
            caughtUp();
          },
        },
      ).catch((err: unknown) => {
        this.problem(`cannot read ${file}: ${(err as Error).message}`);
        caughtUp();
      });
    });
  }

  private record(log: number, file: string, r: LogRecord, live: boolean): void {
    const card = this.cards.add(log, file, r);
    if (!live || this.listeners.size === 0 || isQuietExchange(r)) return;
    const key = `${log}\u0000${r.session}`;
    let batch = this.pendingRows.get(key);
    if (!batch) {
      batch = { log, session: r.session, rows: [] };
      this.pendingRows.set(key, batch);
    }
    batch.rows.push(toRow(r, card.start, this.redact));
    if (++this.pendingCount >= MAX_PENDING_ROWS) this.flush();
  }

  private problem(text: string): void {
    this.problems.push(text);
    this.emit({ type: 'problem', text });
  }

  /** Sends what changed since the last flush: cards first, then rows. */
  flush(): void {
    const changed = this.cards.takeChanged();
    if (changed.length > 0) this.emit({ type: 'cards', cards: changed });
    const batches = this.pendingRows;
    this.pendingRows = new Map();
    this.pendingCount = 0;
    for (const b of batches.values()) this.emit({ type: 'rows', log: b.log, session: b.session, rows: b.rows });
  }

  private emit(ev: LiveEvent): void {
    for (const l of this.listeners) l(ev);
  }
}
