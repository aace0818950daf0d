/**
 * V8's heap in the readers. Left alone, V8 sizes the heap for speed on a machine with memory to spare:
 * the young generation doubles up to 16 MiB per semi-space, and old space may grow to several times
 * what survived the last full collection before the next one — a reader whose live data is ~30 MB
 * reached 130–180 MB RSS on a sick log. Every reader promises ≤ 128 MB whatever the log
 * (docs/performance.md), so readers keep the young generation at 4 MiB per semi-space, as the proxy
 * does, and let old space grow by half of what lives before a full collection.
 */
import { setFlagsFromString } from 'node:v8';
import { sizeYoungGeneration } from '../proxy/young-generation.js';

/** The subcommands that read logs (the relays — the proxy, `http` — and the drivers size their own). */
export const READER_COMMANDS: ReadonlySet<string> = new Set(['tail', 'ls', 'export', 'stats', 'check', 'baseline', 'diff', 'ui', 'audit', 'mcp', 'replay', 'mock']);

/** Sizes the heap for a reader. Call once, before the reading starts. */
export function sizeReaderHeap(): void {
  sizeYoungGeneration(true);
  try {
    setFlagsFromString('--heap-growing-percent=50');
  } catch {
    // an engine without the flag: only memory is at stake
  }
}
