/**
 * Parent-death guard. Node has no prctl(PR_SET_PDEATHSIG), so a tiny /bin/sh process holds a pipe from
 * mcp-tap: if mcp-tap dies without standing it down (SIGKILL, crash), the pipe closes and the watchdog
 * terminates the server's process group (SIGTERM, then SIGKILL after the grace period).
 * POSIX only; on Windows the server still gets EOF on stdin when mcp-tap dies.
 */
import { execa } from 'execa';

const SCRIPT = 'IFS= read -r line; if [ "$line" != ok ]; then kill -TERM -"$1" 2>/dev/null; sleep "$2"; kill -KILL -"$1" 2>/dev/null; fi';

export interface Watchdog {
  /** Normal end: the watchdog exits without touching anything. */
  standDown(): void;
}

/** Starts the guard for a process group; null when the platform has none or it cannot start. */
export function startWatchdog(pgid: number, graceMs: number): Watchdog | null {
  if (process.platform === 'win32' || !(pgid > 0)) return null;
  try {
    // detached: execa's own exit cleanup is off for it, as it must be (the dog outlives a dead mcp-tap)
    const dog = execa('/bin/sh', ['-c', SCRIPT, 'mcp-tap-watchdog', String(pgid), String(Math.max(1, Math.ceil(graceMs / 1000)))], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      buffer: false,
      reject: false,
      forceKillAfterDelay: false,
    });
    dog.on('error', () => {});
    dog.stdin.on('error', () => {});
    dog.unref();
    (dog.stdin as unknown as { unref?: () => void }).unref?.();
    return {
      standDown() {
        try {
          dog.stdin.end('ok\n');
        } catch {
          // already gone
        }
      },
    };
  } catch {
    return null;
  }
}
