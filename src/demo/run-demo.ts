/**
 * `mcp-tap demo`: drive a real server through mcp-tap with the SDK client, narrate each step, then read
 * the session back from the log (via read-log.ts, like every reader) and summarize it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_BIN } from '../package-paths.js';
import { defaultLogDir } from '../log/log-path.js';
import { lensStage } from '../lens/lenses.js';
import { readRecords } from '../log/read-log.js';
import type { LogRecord } from '../log/record.js';
import { colorLevel, makeChalk } from '../view/color.js';
import { escapeControl } from '../text/escape.js';
import { drive, type DriveResult } from './drive.js';
import { locateServer, type DemoServer, type ServerChoice } from './locate-server.js';
import { summarizeSession, type RecordedSummary } from './log-summary.js';
import { renderHeader, renderProgress, renderStep, renderSummary } from './render.js';

export interface DemoOptions {
  /** Log file (default: <default log dir>/demo.jsonrpc.log). */
  log?: string;
  json?: boolean;
  server?: ServerChoice;
  color?: boolean;
  /** mcp-tap's shutdown grace for the demo session. */
  graceMs?: number;
  /** Says a warning the proxy printed (the CLI passes its one-line `mcp-tap: …` on stderr). */
  warn: (message: string) => void;
}

export interface DemoReport {
  ok: boolean;
  server: { kind: DemoServer['kind']; command: string; args: string[]; name?: string; version?: string; protocolVersion?: string };
  log: string;
  steps: DriveResult['steps'];
  progress: DriveResult['progress'];
  host: { sent: number; received: number };
  recorded: RecordedSummary | null;
  problem?: string;
}

const CLI = CLI_BIN;

/** The records of the session mcp-tap `tapPid` wrote, once its end record is there (bounded wait). */
async function readSessionOf(path: string, tapPid: number | null, waitMs = 3000): Promise<LogRecord[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    let session: string | null = null;
    const out: LogRecord[] = [];
    // the demo's summary shows the lenses' findings too
    for await (const item of readRecords(path, { stage: lensStage() })) {
      if (!('record' in item)) continue;
      const r = item.record;
      if (r.kind === 'event' && r.event === 'start' && (tapPid === null || r['pid'] === tapPid)) {
        session = r.session;
        out.length = 0;
      }
      if (session !== null && r.session === session) out.push(r);
    }
    const ended = out.some((r) => r.kind === 'event' && r.event === 'end');
    if (ended || Date.now() > deadline) return out;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs the demo; resolves with the report (the caller sets the exit status from `ok`). */
export async function runDemo(opts: DemoOptions, stdout: NodeJS.WriteStream = process.stdout): Promise<DemoReport> {
  const server = locateServer(opts.server ?? 'auto');
  const logPath = opts.log ?? join(defaultLogDir(process.env), 'demo.jsonrpc.log');
  const level = colorLevel({
    env: process.env,
    isTTY: stdout.isTTY === true,
    depth: stdout.isTTY && typeof stdout.getColorDepth === 'function' ? stdout.getColorDepth() : undefined,
    flag: opts.color,
  });
  const c = makeChalk(opts.json ? 0 : level);
  // a reader that went away (`mcp-tap demo | head`) ends the output, not the demo: the session still runs
  // to its end so the log is complete
  let readerGone = false;
  stdout.on('error', () => {
    readerGone = true;
  });
  const write = (text: string) => {
    if (!readerGone) stdout.write(text);
  };
  const say = (text: string) => {
    if (!opts.json) write(text);
  };

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  say(renderHeader(c, server, logPath));
  const run = await drive({
    command: process.execPath,
    args: [CLI, '--name', 'demo', '--log', logPath, '--grace', String(opts.graceMs ?? 500), '--', server.command, ...server.args],
    env,
    onStep: (s) => say(renderStep(c, s)),
    onProgress: (p) => say(renderProgress(c, p)),
    onTapWarning: (m) => opts.warn(`(from the proxy) ${escapeControl(m)}`),
  });

  let recorded: RecordedSummary | null = null;
  let problem: string | undefined;
  let logBytes: number | null = null;
  try {
    const records = await readSessionOf(logPath, run.tapPid);
    if (records.length === 0) problem = 'no records of this session in the log';
    else recorded = summarizeSession(records);
    logBytes = statSync(logPath).size;
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
  }
  say(renderSummary(c, recorded, run, logPath, logBytes, problem));

  const report: DemoReport = {
    ok: run.steps.every((s) => s.ok) && recorded !== null,
    server: { kind: server.kind, command: server.command, args: server.args, name: run.serverName, version: run.serverVersion, protocolVersion: run.protocolVersion },
    log: logPath,
    steps: run.steps,
    progress: run.progress,
    host: { sent: run.sent, received: run.received },
    recorded,
  };
  if (problem !== undefined) report.problem = problem;
  if (opts.json) write(`${JSON.stringify(report, null, 2)}\n`);
  return report;
}
