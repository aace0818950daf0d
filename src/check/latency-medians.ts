/**
 * Nearest-rank medians of latencies by key (a method, a tool), streamed in bounded memory: every
 * latency is kept while the keys hold at most EXACT_LATENCIES in all, and the median is then exact;
 * past that, the key with the most kept latencies moves them into a log-bucket histogram (LogHistogram)
 * and counts its further ones there, its median within LATENCY_RELATIVE_ERROR of the exact one. Keys
 * past the first MAX_KEYS are not timed. Memory: at most EXACT_LATENCIES numbers and MAX_KEYS
 * histograms, however long the session. Pure.
 */
import { MAX_KEYS } from '../log/keep-first.js';

/** Latency of one method or tool in one session. */
export interface LatencyStat {
  /** Answers measured. */
  n: number;
  /** Nearest-rank median, ms. */
  median: number;
}

/** Latencies kept exactly, over all keys of one LatencyMedians (8 bytes each). */
export const EXACT_LATENCIES = 100_000;

/** Largest relative error of a median read from a histogram (between 1 µs and HISTOGRAM_MAX_MS). */
export const LATENCY_RELATIVE_ERROR = 0.01;

/** Below this a latency counts as 0 in a histogram (the baseline rounds medians to 1 µs). */
const MIN_MS = 0.001;
/** Above this (~11.6 days) a latency counts in the histogram's last bucket. */
const HISTOGRAM_MAX_MS = 1e9;

const GAMMA = (1 + LATENCY_RELATIVE_ERROR) / (1 - LATENCY_RELATIVE_ERROR);
const LOG_GAMMA = Math.log(GAMMA);
/** Bucket 0: ≤ MIN_MS; bucket i ≥ 1: (MIN_MS·γ^(i-1), MIN_MS·γ^i]. */
const BUCKETS = Math.ceil(Math.log(HISTOGRAM_MAX_MS / MIN_MS) / LOG_GAMMA) + 1;

/** Nearest rank of the median among n values (1-based). */
const medianRank = (n: number): number => Math.max(1, Math.ceil(n / 2));

/**
 * Counts of latencies in buckets whose bounds grow by γ = (1 + ε)/(1 − ε) (ε = LATENCY_RELATIVE_ERROR),
 * with the smallest and largest latency seen: fixed size (~11 KB), so a median of any number of
 * latencies is within ε of the exact one.
 */
export class LogHistogram {
  private readonly counts = new Float64Array(BUCKETS);
  private min = Infinity;
  private max = -Infinity;
  private count = 0;

  /** Latencies counted. */
  get n(): number {
    return this.count;
  }

  /** Counts one latency. */
  add(ms: number): void {
    const i = ms <= MIN_MS ? 0 : Math.min(BUCKETS - 1, Math.max(1, Math.ceil(Math.log(ms / MIN_MS) / LOG_GAMMA)));
    this.counts[i]!++;
    this.count++;
    if (ms < this.min) this.min = ms;
    if (ms > this.max) this.max = ms;
  }

  /** The nearest-rank median, as its bucket's middle (in relative terms) kept within the latencies seen; undefined when empty. */
  median(): number | undefined {
    if (this.count === 0) return undefined;
    const rank = medianRank(this.count);
    let seen = 0;
    let i = 0;
    for (; i < BUCKETS; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) break;
    }
    const mid = i === 0 ? 0 : (MIN_MS * 2 * GAMMA ** i) / (GAMMA + 1);
    return Math.min(this.max, Math.max(this.min, mid));
  }
}

/** One key's latencies: every one (exact), or a histogram. */
type Timed = { exact: number[] } | { histogram: LogHistogram };

/** Medians by key, fed one latency at a time. */
export class LatencyMedians {
  private readonly keys = new Map<string, Timed>();
  private exactCount = 0;

  constructor(
    private readonly exactLatencies = EXACT_LATENCIES,
    private readonly maxKeys = MAX_KEYS,
  ) {}

  /** One latency of `key`, ms. */
  add(key: string, ms: number): void {
    let t = this.keys.get(key);
    if (t === undefined) {
      if (this.keys.size >= this.maxKeys) return;
      t = { exact: [] };
      this.keys.set(key, t);
    }
    if ('histogram' in t) {
      t.histogram.add(ms);
      return;
    }
    t.exact.push(ms);
    if (++this.exactCount > this.exactLatencies) this.spill();
  }

  /** Latencies held exactly now: never more than `exactLatencies`. */
  get exact(): number {
    return this.exactCount;
  }

  /** n and median of every key, in the order the keys came. */
  stats(): Map<string, LatencyStat> {
    const out = new Map<string, LatencyStat>();
    for (const [key, t] of this.keys) {
      if ('histogram' in t) out.set(key, { n: t.histogram.n, median: t.histogram.median()! });
      else {
        const sorted = Float64Array.from(t.exact).sort();
        out.set(key, { n: sorted.length, median: sorted[medianRank(sorted.length) - 1]! });
      }
    }
    return out;
  }

  /** Moves the key with the most exact latencies into a histogram. */
  private spill(): void {
    let most: [string, number[]] | undefined;
    for (const [key, t] of this.keys) if ('exact' in t && (most === undefined || t.exact.length > most[1].length)) most = [key, t.exact];
    if (most === undefined) return;
    const histogram = new LogHistogram();
    for (const ms of most[1]) histogram.add(ms);
    this.exactCount -= most[1].length;
    this.keys.set(most[0], { histogram });
  }
}
