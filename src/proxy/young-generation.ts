/**
 * The size of V8's young generation in the proxy. Every message leaves a few short-lived objects, and a
 * scavenge costs about the same (~0.7 ms in the pipelined bench) however much it frees: at the initial
 * 1 MiB per semi-space the proxy spent ~0.45 µs per message in scavenges, at 4 MiB half that. Left
 * alone, V8 keeps doubling the young generation under load, up to 16 MiB per semi-space, which costs
 * memory and no more speed. So V8 may grow it to 4 MiB per semi-space and is then told to stop
 * (docs/performance.md has the numbers).
 *
 * Scavenges also run on the main thread alone. In parallel, V8's helper threads join each one; on a
 * machine whose cores the host and the server keep busy, that cost more CPU in all (the helpers
 * synchronise, and wait for a core) than it saved on the main thread.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Both semi-spaces together, once grown. */
const TARGET_NEW_SPACE_BYTES = 8 * 1024 * 1024;

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

function stopGrowing(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Lets the young generation grow to 4 MiB per semi-space, no further; with `grow` false it stays at its
 * initial size. Scavenges run on the main thread. Call once per process.
 */
export function sizeYoungGeneration(grow = true): void {
  try {
    setFlagsFromString('--no-parallel-scavenge');
    if (!grow || newSpaceBytes() >= TARGET_NEW_SPACE_BYTES) {
      stopGrowing();
      return;
    }
    setFlagsFromString('--semi-space-growth-factor=2');
    // V8 grows the young generation in a scavenge; the first one after the growth stops it
    const gc = new PerformanceObserver(() => {
      if (newSpaceBytes() < TARGET_NEW_SPACE_BYTES) return;
      stopGrowing();
      gc.disconnect();
    });
    gc.observe({ entryTypes: ['gc'] });
  } catch {
    // an engine without these flags or statistics: only memory and a little speed are at stake
  }
}

/** Relayed bytes after which the relay thread collects its young generation (see relayScavenger). */
const SCAVENGE_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * The relay thread's chunks hold their bytes outside V8's heap until a scavenge frees them, and a thread
 * that only relays allocates too little on the heap to scavenge often: left alone, ~20 MB of relayed,
 * dead chunks waited for V8's external-memory limit. This collects the young generation every 4 MiB
 * relayed (one scavenge of a nearly empty space: ~0.1 ms per 4,000 1 KiB messages). Returns the counter
 * to call per chunk; a no-op where the engine does not allow it.
 */
export function relayScavenger(): (bytes: number) => void {
  let gc: ((o: { type: 'minor' }) => void) | undefined;
  try {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as typeof gc;
  } catch {
    gc = undefined;
  }
  if (typeof gc !== 'function') return () => {};
  const collect = gc;
  let since = 0;
  return (bytes) => {
    since += bytes;
    if (since < SCAVENGE_EVERY_BYTES) return;
    since = 0;
    collect({ type: 'minor' });
  };
}
