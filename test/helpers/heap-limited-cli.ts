/**
 * The built CLI in a child process whose V8 heap is capped: how the reader tests prove a bound on memory
 * (a reader that keeps too much dies with "JavaScript heap out of memory" and the test sees its exit).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CLI } from './paths.js';

/** What a run printed to its `-o` file, its stderr and its exit code. */
export interface CliRun {
  code: number | null;
  err: string;
  text: string;
}

/** Runs `mcp-tap <args> -o <out>` with a `heapMb` MB old space (no cap when false). */
export function runCliWithHeap(args: string[], out: string, heapMb: number | false, timeoutMs = 60_000): CliRun {
  const r = spawnSync(process.execPath, [...(heapMb !== false ? [`--max-old-space-size=${heapMb}`] : []), CLI, ...args, '-o', out], {
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let text = '';
  try {
    text = readFileSync(out, 'utf8');
  } catch {
    // no output: the assertions on code and stderr say why
  }
  return { code: r.status, err: r.stderr, text };
}
