/**
 * The two ways `mcp-tap check` gets a report: from an existing log, or by running a server through
 * mcp-tap into a log of its own (`--run`) and judging that. I/O lives here; judging is evaluate.ts.
 */
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { TapError } from '../errors.js';
import { ContextCostBuilder, contextNeedsBody } from '../lens/context/context-cost.js';
import { loadTokenizer } from '../lens/context/tokenizer.js';
import { CLI_BIN } from '../package-paths.js';
import { describeFsError } from '../log/fs-error.js';
import { makeDirSync } from '../log/make-dir.js';
import { findLatestLog } from '../log/log-files.js';
import { LogNotUsable } from '../log/read-log.js';
import { deriveServerName } from '../log/log-path.js';
import type { LogRecord } from '../log/record.js';
import { VERSION } from '../version.js';
import { progressFor } from '../view/progress-line.js';
import { loadAjvValidator } from './ajv-validator.js';
import type { CheckPlan } from './check-options.js';
import { evaluate } from './evaluate.js';
import { SessionGatherer } from './gather.js';
import { LISTED_REQUESTS, type SessionFacts } from './facts.js';
import { readFacts, type FactsChoice } from './read-facts.js';
import type { CheckReport } from './report.js';

/** bin/mcp-tap.js of this package. */
export const CLI_PATH = CLI_BIN;

/** Fails early, with one line, when --log names a file mcp-tap could not write (the check would have nothing to read). */
async function ensureWritable(path: string): Promise<void> {
  // a FIFO would hold the open below (and check reads the log back from a file)
  const st = await stat(path).catch(() => null);
  if (st !== null && !st.isFile() && !st.isDirectory()) throw new TapError('BAD_INPUT', `cannot use ${path} as the log: it is not a regular file (check reads the log back)`);
  try {
    makeDirSync(dirname(path));
    const fh = await open(path, 'a', 0o600);
    await fh.close();
  } catch (err) {
    throw new TapError('BAD_INPUT', `cannot write the log ${path} (${describeFsError(err)})`, { cause: err });
  }
}

/** The context-cost fold for the token budgets (the tokenizer is loaded only when a budget is given). */
async function contextFold(plan: CheckPlan): Promise<{ fold: NonNullable<FactsChoice['fold']>; attach: (f: SessionFacts) => void } | undefined> {
  const a = plan.assertions;
  if (a.maxContextTokens === undefined && a.maxResultTokens === undefined) return undefined;
  const tokenizer = await loadTokenizer();
  let builder: ContextCostBuilder | undefined;
  const lines = new Map<number, number>();
  const fold: NonNullable<FactsChoice['fold']> = {
    needsBody: contextNeedsBody,
    add: (r, line) => {
      builder ??= new ContextCostBuilder(r.session, tokenizer, a.maxResultTokens);
      builder.add(r);
      if (r.kind === 'response' && r.method === 'tools/call' && lines.size < 10_000) lines.set(r.seq, line);
    },
  };
  return {
    fold,
    attach: (f) => {
      f.context = (builder ?? new ContextCostBuilder(f.session, tokenizer, a.maxResultTokens)).finish();
      const kept = new Set((f.context.overLimit?.first ?? []).map((r) => r.seq));
      f.lines = new Map([...lines].filter(([seq]) => kept.has(seq)));
    },
  };
}

/** check on a log file already written; `transform` sees each record of the session first (mcp-tap mcp redacts there). */
export async function checkLog(plan: CheckPlan, warn: (m: string) => void, transform?: (record: LogRecord) => LogRecord): Promise<CheckReport> {
  const path = plan.file ?? (await findLatestLog());
  const progress = progressFor(path);
  const context = await contextFold(plan);
  let facts: SessionFacts;
  try {
    const bound = { listed: LISTED_REQUESTS, maxMs: plan.assertions.maxMs, forbidTools: plan.assertions.forbidTools };
    facts = await readFacts(path, { session: plan.session, warn, onProgress: progress.update, bound, ...(context ? { fold: context.fold } : {}), ...(transform ? { transform } : {}) });
  } finally {
    progress.done();
  }
  context?.attach(facts);
  return evaluate(facts, { failOn: plan.failOn, assertions: plan.assertions, validator: await loadAjvValidator() });
}

/** The report of `check --run` and where its log is. */
export interface RunCheckResult {
  report: CheckReport;
  /** Where the session's log is (a temporary file unless --log was given). */
  logPath: string;
  /** The log is a temporary file: the caller removes it (or keeps it to show a failure). */
  temporary: boolean;
  cleanup: () => Promise<void>;
}

/** check --run: the server through mcp-tap with the SDK client, then the check of that session. */
export async function checkRun(plan: CheckPlan, opts: { cwd?: string; env?: NodeJS.ProcessEnv; cliPath?: string } = {}): Promise<RunCheckResult> {
  const run = plan.run!;
  const name = run.name ?? deriveServerName(run.command, run.args);
  let dir: string | undefined;
  let logPath: string;
  if (run.log !== undefined) {
    logPath = resolve(run.log);
    await ensureWritable(logPath);
  } else {
    dir = await mkdtemp(join(tmpdir(), 'mcp-tap-check-'));
    logPath = join(dir, `${name}.jsonrpc.log`);
  }
  const cleanup = async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  try {
    // the SDK client is loaded only here: checking a log does not need it
    const { runSession } = await import('./run-session.js');
    const session = await runSession({
      cliPath: opts.cliPath ?? CLI_PATH,
      command: run.command,
      args: run.args,
      logPath,
      name,
      calls: run.calls,
      timeoutMs: run.timeoutMs,
      clientVersion: VERSION,
      ...(opts.env !== undefined ? { env: opts.env } : {}),
      ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    });
    let facts: SessionFacts;
    const context = await contextFold(plan);
    try {
      facts = await readFacts(logPath, { ...(session.tapPid !== undefined ? { tapPid: session.tapPid } : {}), ...(context ? { fold: context.fold } : {}) });
    } catch (err) {
      if (!(err instanceof LogNotUsable)) throw err;
      facts = new SessionGatherer(logPath, '').finish();
    }
    context?.attach(facts);
    const tapFailure = session.stderr.filter((l) => l.trim() !== '').slice(-3).join(' / ');
    const report = evaluate(facts, {
      failOn: plan.failOn,
      assertions: plan.assertions,
      validator: await loadAjvValidator(),
      run: {
        command: run.command,
        args: run.args,
        timeoutMs: run.timeoutMs,
        ...(session.timedOut ? { timedOut: session.timedOut } : {}),
        clientErrors: session.failures,
        notSent: session.notSent,
        ...(tapFailure !== '' ? { tapFailure } : {}),
      },
    });
    return { report, logPath, temporary: dir !== undefined, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
