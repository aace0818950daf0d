/** Condition polling with a deadline: tests wait on what they need, never on a fixed sleep. */
import { readdirSync, readFileSync } from 'node:fs';

/** Resolves with the first truthy value of `cond`, polled every `intervalMs`; rejects after `timeoutMs`. */
export async function waitFor<T>(cond: () => T | Promise<T>, timeoutMs = 5000, what = 'condition', intervalMs = 20): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** True while a process exists and is not a zombie (a zombie has exited; only its table entry is left). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    return true; // EPERM: exists, not ours
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false; // gone between the two checks
  }
}

/** Waits until the process is gone; rejects (naming the pid) when it outlives the deadline. */
export async function waitDead(pid: number, timeoutMs = 5000): Promise<void> {
  await waitFor(() => !isAlive(pid), timeoutMs, `process ${pid} to be gone`);
}

/** The pid a fixture server wrote to its pid file, once the file exists (a busy machine may take seconds to start one). */
export async function readPid(file: string, timeoutMs = 15_000): Promise<number> {
  const text = await waitFor(() => {
    try {
      const t = readFileSync(file, 'utf8').trim();
      return /^\d+$/.test(t) ? t : '';
    } catch {
      return '';
    }
  }, timeoutMs, `pid file ${file}`);
  return Number(text);
}

/** Pids of live (non-zombie) processes whose command line contains `token`: finds servers that never wrote a pid file. */
export function processesWith(token: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(token) && isAlive(Number(entry))) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
