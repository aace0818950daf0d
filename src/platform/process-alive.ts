/**
 * Whether the mcp-tap that wrote a session is still running on this machine: how readers tell a live
 * session from one whose mcp-tap was killed (SIGKILL leaves neither an exit nor an end record; Copilot
 * CLI ends its servers that way). Signal 0 probes without touching the process.
 */

/** True when a process with this pid exists here (EPERM: it exists, someone else's). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How a session without an end record stands: its mcp-tap still runs, or was killed (its process is gone). */
export function unendedState(pid: number | undefined, alive: (pid: number) => boolean = processAlive): 'running' | 'killed' {
  return pid !== undefined && !alive(pid) ? 'killed' : 'running';
}
