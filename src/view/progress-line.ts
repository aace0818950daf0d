/**
 * The progress line of long reads: on stderr, only when stderr is a terminal, only once a read has taken
 * more than a second, redrawn at most four times a second and erased when the read ends. Never on stdout.
 */
import { statSync } from 'node:fs';
import { formatBytes } from '../transcript/format.js';

/** What a progress line needs from its surroundings (injected in tests). */
export interface ProgressEdge {
  stream: { isTTY?: boolean; write(text: string): unknown };
  now: () => number;
}

export interface Progress {
  /** Reads report here: bytes read of the file, records read. */
  update(bytes: number, records: number): void;
  /** Erases the line (call when the read is over, before anything else goes to stderr). */
  done(): void;
}

const DELAY_MS = 1000;
const EVERY_MS = 250;

/** `reading 120 MB of 262 MB (46%), 91,234 records, 2.1 s` */
export function progressText(bytes: number, total: number, records: number, elapsedMs: number): string {
  const pct = total > 0 ? ` (${Math.min(100, Math.floor((bytes / total) * 100))}%)` : '';
  return `reading ${formatBytes(bytes)} of ${formatBytes(total)}${pct}, ${records.toLocaleString('en-US')} records, ${(elapsedMs / 1000).toFixed(1)} s`;
}

const NONE: Progress = { update() {}, done() {} };

/** A progress line for reading `path` (its size read once now); a no-op when stderr is not a terminal. */
export function progressFor(path: string, edge: ProgressEdge = { stream: process.stderr, now: Date.now }): Progress {
  if (edge.stream.isTTY !== true) return NONE;
  let total = 0;
  try {
    total = statSync(path).size;
  } catch {
    // the reader says why it cannot read the file
  }
  const started = edge.now();
  let last = 0;
  let shown = false;
  return {
    update(bytes, records) {
      const t = edge.now();
      if (t - started < DELAY_MS || t - last < EVERY_MS) return;
      last = t;
      shown = true;
      edge.stream.write(`\r\x1b[Kmcp-tap: ${progressText(bytes, total, records, t - started)}`);
    },
    done() {
      if (shown) edge.stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
