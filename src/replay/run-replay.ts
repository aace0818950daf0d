/**
 * The replay's I/O edge: starts the server through mcp-tap (so the replay has its own log), feeds the
 * engine the server's stdout lines and its clock, writes what the engine sends, and ends the server when
 * the engine is done. Raw JSON-RPC lines, no SDK: the replay needs exact control over ids and order.
 */
import { execa } from 'execa';
import { TapError } from '../errors.js';
import { CLI_BIN } from '../package-paths.js';
import { jsonShortener } from '../framing/json-shortener.js';
import { LineSplitter } from '../framing/line-splitter.js';
import { lineText } from '../framing/line-text.js';
import { resolveSession } from '../log/read-session.js';
import type { CompareOptions } from './compare.js';
import type { ReplayPlan } from './plan.js';
import { ReplayEngine } from './replay-engine.js';
import type { ReplayResult } from './result.js';

/** The CLI entry point of this package (bin/mcp-tap.js). */
export const TAP_BIN = CLI_BIN;

/** Lines from the server longer than this are not held whole (their answer is not compared). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface ReplayRun {
  plan: ReplayPlan;
  command: string;
  args: readonly string[];
  /** Where mcp-tap logs the replay; null for no log. */
  logPath: string | null;
  /** Name of the server for mcp-tap (--name). */
  name: string;
  timeoutMs: number;
  compare: Omit<CompareOptions, 'shortened'>;
  /** mcp-tap's shutdown grace for the server (ms). */
  graceMs?: number;
}

export interface ReplayOutcome {
  result: ReplayResult;
  /** The replay's session id in its log, when it could be read back. */
  replaySession?: string;
}

/** Runs one replay to the end. Throws TapError when the server could not be started at all. */
export async function runReplay(run: ReplayRun): Promise<ReplayOutcome> {
  const grace = run.graceMs ?? 1000;
  const tapArgs = [TAP_BIN, '--quiet', '--grace', String(grace), '--name', run.name, ...(run.logPath ? ['--log', run.logPath] : ['--no-log']), '--', run.command, ...run.args];
  // raw pipes (buffer: false); the kill timers below are the escalation, so execa adds none
  const child = execa(process.execPath, tapArgs, { stdio: ['pipe', 'pipe', 'inherit'], buffer: false, reject: false, forceKillAfterDelay: false });
  const started = performance.now();
  const now = (): number => performance.now() - started;
  const engine = new ReplayEngine(run.plan, { timeoutMs: run.timeoutMs, compare: run.compare, now });
  child.stdin.on('error', () => {}); // the server went away: the engine hears of it through 'close'

  const result = await new Promise<{ code: number | null; signal: string | null }>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let finishing = false;
    let killTimer: NodeJS.Timeout | undefined;
    const send = (lines: string[]): void => {
      if (finishing || child.stdin.destroyed) return;
      for (const l of lines) child.stdin.write(`${l}\n`);
    };
    const finish = (): void => {
      if (finishing) return;
      finishing = true;
      clearTimeout(timer);
      child.stdin.end();
      // mcp-tap closes the server's stdin, then escalates after its grace; give it that and a little more
      killTimer = setTimeout(() => {
        child.kill('SIGTERM');
        killTimer = setTimeout(() => child.kill('SIGKILL'), 2000);
      }, 2 * grace + 3000);
    };
    // the engine reads recorded bodies from the log as it goes: a log changed meanwhile ends the replay (InputError)
    const guarded = (f: () => void): void => {
      try {
        f();
      } catch (err) {
        finish();
        reject(err);
      }
    };
    const schedule = (): void => {
      clearTimeout(timer);
      if (finishing) return;
      if (engine.finished) return finish();
      const d = engine.nextDeadline();
      if (d === undefined) return finish(); // nothing left to wait for (never expected: a waiting engine has a deadline)
      timer = setTimeout(
        () =>
          guarded(() => {
            send(engine.onTick());
            schedule();
          }),
        Math.max(0, Math.ceil(d - now())) + 1,
      );
    };
    const splitter = new LineSplitter(
      MAX_LINE_BYTES,
      (line) =>
        guarded(() => {
          if (finishing) return;
          if (line.data) {
            const text = lineText(line.data);
            if (text === null) return;
            send(engine.onLine(text));
          } else {
            let parsed: unknown;
            try {
              parsed = line.shortened ? JSON.parse(line.shortened) : undefined;
            } catch {
              parsed = undefined;
            }
            send(engine.onOversized(parsed, line.bytes));
          }
          schedule();
        }),
      jsonShortener,
    );
    child.stdout.on('data', (c: Buffer) => splitter.push(c));
    child.stdout.on('end', () => splitter.end());
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new TapError('SPAWN_FAILED', `cannot start mcp-tap for the replay: ${err.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      if (!finishing) guarded(() => engine.onExit(code, signal));
      resolve({ code, signal });
    });
    guarded(() => {
      send(engine.start());
      schedule();
    });
  });

  if (!engine.heardFromServer && (result.code === 127 || result.code === 126)) {
    throw new TapError(result.code === 127 ? 'COMMAND_NOT_FOUND' : 'NOT_EXECUTABLE', `the server did not start (see the message above); nothing was replayed`);
  }
  const outcome: ReplayOutcome = { result: engine.result(result) };
  if (run.logPath) {
    try {
      const [s] = await resolveSession(run.logPath, 'last');
      if (s) outcome.replaySession = s.id;
    } catch {
      // the replay's log is a convenience; its absence is reported by mcp-tap itself
    }
  }
  return outcome;
}
