/**
 * Which records of a long session the Markdown and HTML exports show. A session of up to SAMPLE_ABOVE
 * records (and WHOLE_BYTES of messages) is shown whole. A longer one is shown in part, decided in two
 * passes over the log: the first folds every record into the session's summary and notes the calls that
 * must stay — the first PER_KEY of each finding code, error code, isError results and invalid lines
 * (src/log/keep-first.ts), and the slowest calls; the second keeps the first and last WINDOW records,
 * those calls, one request in `every` of the rest with its answers and progress, and mcp-tap's events
 * (but HTTP mode's records of plain exchanges, which neither export shows),
 * and counts the bad records it leaves out, by key, for the "… and N more" lines. Summary numbers always
 * come from the first pass, so they are the whole session's. Pure: records in, decisions out.
 */
import { ContextCostBuilder, type ContextCost } from '../lens/context/context-cost.js';
import type { Tokenizer } from '../lens/context/tokenizer.js';
import { isQuietExchange } from '../log/http-records.js';
import { badKeysOf, KeepFirst, keyNoun, moreText } from '../log/keep-first.js';
import type { LogRecord } from '../log/record.js';
import { SummaryBuilder, type SessionSummary } from './summary.js';

/** Sessions with more records than this are sampled (unless --full). */
export const SAMPLE_ABOVE = 4000;
/** …or with more message bytes than this. */
export const WHOLE_BYTES = 16 * 1024 * 1024;
/** Records kept at each end of a sampled session. */
export const WINDOW = 1000;
/** About this many requests are sampled from the middle. */
export const MIDDLE_REQUESTS = 500;
/** Bad records shown per finding code, error code, isError and invalid lines; the rest are counted. */
export const PER_KEY = 100;

/** Whether a reader must parse a record's body to know why it is bad (an error answer's code). */
export const badKeysNeedBody = (head: LogRecord): boolean => head.kind === 'error' || head.kind === 'batch';

/** How one session is shown: whole, or which parts. */
export interface SessionPlan {
  session: string;
  summary: SessionSummary;
  /** What the whole session costs the model's context (when the planner was given a tokenizer). */
  context?: ContextCost;
  records: number;
  /** Null: the session is shown whole. */
  sample: null | {
    /** One request in `every` of the middle is kept. */
    every: number;
    /** Seqs of the records kept because they are bad (and of their requests), and of the slowest calls. */
    calls: Set<number>;
    /** Bad records the second pass did not show, counted by key (filled by SampleSelector). */
    omitted: KeepFirst;
  };
}

const isAnswer = (k: unknown): boolean => k === 'response' || k === 'error';

/** First pass: the summary of each session and whether (and how) to sample it. */
export class SamplePlanner {
  private readonly sessions = new Map<string, { summary: SummaryBuilder; context?: ContextCostBuilder; records: number; requests: number; bytes: number; calls: Set<number>; quota: KeepFirst }>();

  /** `tokenizer`: also fold each session's context cost (read the bodies contextNeedsBody names). */
  constructor(
    private readonly whole = false,
    private readonly tokenizer?: Tokenizer,
  ) {}

  /** Whether `add` needs the record's body (pass to readRecords' needsBody, or-ed with the summary's). */
  static needsBody(head: LogRecord): boolean {
    return badKeysNeedBody(head);
  }

  add(r: LogRecord): void {
    let s = this.sessions.get(r.session);
    if (!s) {
      s = { summary: new SummaryBuilder(), records: 0, requests: 0, bytes: 0, calls: new Set(), quota: new KeepFirst({ perKey: PER_KEY }) };
      if (this.tokenizer) s.context = new ContextCostBuilder(r.session, this.tokenizer);
      this.sessions.set(r.session, s);
    }
    s.summary.add(r);
    s.context?.add(r);
    s.records++;
    if (typeof r.bytes === 'number') s.bytes += r.bytes;
    if (r.kind === 'request') s.requests++;
    const keys = badKeysOf(r);
    // the first PER_KEY of each key stay: a record is kept when one of its keys still has room
    if (keys.length > 0 && keys.some((k) => s.quota.hasRoom(k))) {
      for (const k of keys) s.quota.take(k);
      s.calls.add(r.seq);
      if (typeof r.reqSeq === 'number') s.calls.add(r.reqSeq);
      if (r.kind === 'batch' && Array.isArray(r.items)) {
        for (const it of r.items) if (isAnswer(it.kind) && (it.kind === 'error' || it.isError === true) && typeof it.reqSeq === 'number') s.calls.add(it.reqSeq);
      }
    }
  }

  finish(): SessionPlan[] {
    return [...this.sessions].map(([session, s]) => {
      const summary = s.summary.finish();
      const context = s.context ? { context: s.context.finish() } : {};
      const big = s.records > SAMPLE_ABOVE || s.bytes > WHOLE_BYTES;
      if (this.whole || !big) return { session, summary, ...context, records: s.records, sample: null };
      for (const c of summary.slowest) {
        s.calls.add(c.seq);
        if (c.reqSeq !== undefined) s.calls.add(c.reqSeq);
      }
      return { session, summary, ...context, records: s.records, sample: { every: Math.max(1, Math.ceil(s.requests / MIDDLE_REQUESTS)), calls: s.calls, omitted: new KeepFirst({ perKey: 0 }) } };
    });
  }
}

/**
 * Second pass: keeps the records the plans say to show. `wouldKeep` looks at a record's envelope without
 * changing anything (readers use it to parse only kept bodies); `take` then says the same and moves on.
 */
export class SampleSelector {
  private readonly state = new Map<string, { plan: SessionPlan; index: number; requests: number; kept: Set<number> }>();

  constructor(plans: readonly SessionPlan[]) {
    for (const plan of plans) this.state.set(plan.session, { plan, index: 0, requests: 0, kept: new Set() });
  }

  wouldKeep(r: LogRecord): boolean {
    const s = this.state.get(r.session);
    if (!s) return false;
    // HTTP mode's record per plain exchange: neither page shows it, so a long HTTP session does not hold one per message
    if (isQuietExchange(r)) return false;
    const sample = s.plan.sample;
    if (sample === null) return true;
    const i = s.index;
    if (i < WINDOW || i >= s.plan.records - WINDOW) return true;
    switch (r.kind) {
      case 'request':
        return sample.calls.has(r.seq) || s.requests % sample.every === 0;
      case 'response':
      case 'error':
      case 'notification':
        return sample.calls.has(r.seq) || (typeof r.reqSeq === 'number' && s.kept.has(r.reqSeq));
      case 'event':
        return true;
      default:
        return sample.calls.has(r.seq);
    }
  }

  /** Whether `take` needs the record's body: to know which keys a bad record left out has (its error code). */
  needsBody(head: LogRecord): boolean {
    return this.wouldKeep(head) || (this.state.get(head.session)?.plan.sample !== null && badKeysNeedBody(head));
  }

  take(r: LogRecord): boolean {
    const s = this.state.get(r.session);
    if (!s) return false;
    const keep = this.wouldKeep(r);
    const sample = s.plan.sample;
    if (!keep && sample !== null) for (const k of badKeysOf(r)) sample.omitted.omit(k);
    s.index++;
    if (r.kind === 'request') {
      s.requests++;
      if (keep && s.plan.sample !== null) s.kept.add(r.seq);
    }
    if (keep && isAnswer(r.kind) && typeof r.reqSeq === 'number') s.kept.delete(r.reqSeq);
    return keep;
  }
}

/** The line a sampled export opens its conversation with. */
export function sampleNotice(plan: SessionPlan, shown: number): string | undefined {
  if (plan.sample === null) return undefined;
  return (
    `This session has ${plan.records.toLocaleString('en-US')} records; ${shown.toLocaleString('en-US')} are shown: the first and last ` +
    `${WINDOW.toLocaleString('en-US')}, the first ${PER_KEY} of each finding code, error code, isError results and invalid lines (the rest are counted below), the slowest calls, mcp-tap's events, and one request in ` +
    `${plan.sample.every} of the rest with its answers. The summary counts the whole session. Export with --full for every record.`
  );
}

/** The bad records a sampled export left out, one line per key: `… and 99,000 more before-initialize findings`. */
export function sampleOmittedLines(plan: SessionPlan | undefined): string[] {
  if (!plan?.sample) return [];
  return plan.sample.omitted.omitted().map((o) => moreText(o.count, keyNoun(o.key, o.count)));
}
