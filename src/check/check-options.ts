/** `mcp-tap check` command-line values → typed options; every mistake is a one-line UsageError (exit 2). */
import { UsageError } from '../errors.js';
import { parseMaxMs, parseTokens, parseToolNames, type Assertions } from './assertions.js';
import { parseFailOn, type FailOn } from './fail-on.js';
import type { ToolCall } from './run-session.js';

/** Report formats of `--format`. */
export const FORMATS = ['text', 'json', 'sarif', 'junit'] as const;
/** One of FORMATS. */
export type Format = (typeof FORMATS)[number];

/** `--timeout` default: the deadline of each step of `check --run`. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** The options commander hands over, as typed. */
export interface CheckCliOptions {
  session?: string;
  format: string;
  output?: string;
  failOn?: string[];
  maxMs?: string[];
  expectTool?: string[];
  forbidTool?: string[];
  maxContextTokens?: string;
  maxResultTokens?: string;
  run?: boolean;
  call?: string[];
  timeout?: string;
  log?: string;
  name?: string;
}

/** The validated plan of one `check` invocation. */
export interface CheckPlan {
  format: Format;
  output?: string;
  failOn: FailOn[];
  assertions: Assertions;
  /** Log mode: the file (undefined: the most recent log) and the session. */
  file?: string;
  session: string;
  /** Run mode. */
  run?: { command: string; args: string[]; calls: ToolCall[]; timeoutMs: number; log?: string; name?: string };
}

/** `tool=json` (or just `tool`, meaning no arguments) → a call; the JSON must be an object. */
export function parseCall(value: string): ToolCall {
  const eq = value.indexOf('=');
  const tool = (eq < 0 ? value : value.slice(0, eq)).trim();
  if (tool === '') throw new UsageError(`--call takes <tool>=<json arguments>, e.g. echo='{"message":"hi"}', got ${JSON.stringify(value)}`);
  if (eq < 0) return { tool, arguments: {} };
  const text = value.slice(eq + 1);
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--call ${tool}: the arguments are not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new UsageError(`--call ${tool}: the arguments must be a JSON object, got ${JSON.stringify(text)}`);
  return { tool, arguments: args as Record<string, unknown> };
}

function tokenBudgets(o: CheckCliOptions): Pick<Assertions, 'maxContextTokens' | 'maxResultTokens'> {
  const context = parseTokens('--max-context-tokens', o.maxContextTokens);
  const result = parseTokens('--max-result-tokens', o.maxResultTokens);
  return { ...(context !== undefined ? { maxContextTokens: context } : {}), ...(result !== undefined ? { maxResultTokens: result } : {}) };
}

/** Checks the flag combinations and parses every value. */
export function planCheck(operands: readonly string[], o: CheckCliOptions): CheckPlan {
  const format = o.format.toLowerCase();
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(o.format)}`);
  const plan: CheckPlan = {
    format: format as Format,
    failOn: parseFailOn(o.failOn),
    assertions: {
      maxMs: parseMaxMs(o.maxMs),
      expectTools: parseToolNames('--expect-tool', o.expectTool),
      forbidTools: parseToolNames('--forbid-tool', o.forbidTool),
      ...tokenBudgets(o),
    },
    session: o.session ?? 'last',
  };
  if (o.output !== undefined) plan.output = o.output;
  // one report is one session's verdict; 'all' would need a verdict per session, so it is refused (as in replay)
  if (o.session === 'all') throw new UsageError('check judges one session; pass --session last or a session id (mcp-tap ls lists them), once per session');
  if (!o.run) {
    for (const [flag, v] of [['--call', o.call], ['--timeout', o.timeout], ['--log', o.log], ['--name', o.name]] as const) {
      if (v !== undefined) throw new UsageError(`${flag} goes with --run (check --run ${flag} … -- <server command>)`);
    }
    if (operands.length > 1) throw new UsageError(`check reads one log file, got ${operands.length} arguments; to start a server, use check --run -- <command> [args...]`);
    if (operands[0] !== undefined) plan.file = operands[0];
    return plan;
  }
  if (o.session !== undefined) throw new UsageError('--session reads an existing log; it does not go with --run');
  const [command, ...args] = operands;
  if (command === undefined || command.trim() === '') throw new UsageError('missing the server command: mcp-tap check --run [options] -- <command> [args...]');
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (o.timeout !== undefined) {
    if (!/^\d+$/.test(o.timeout) || Number(o.timeout) < 1 || Number(o.timeout) > 2 ** 31 - 1) {
      throw new UsageError(`--timeout takes milliseconds (a whole number ≥ 1), got ${JSON.stringify(o.timeout)}`);
    }
    timeoutMs = Number(o.timeout);
  }
  if (o.name !== undefined && (!/^[A-Za-z0-9._-]{1,100}$/.test(o.name) || o.name.startsWith('.'))) {
    throw new UsageError(`--name must be letters, digits, '.', '_' or '-', got ${JSON.stringify(o.name)}`);
  }
  plan.run = {
    command,
    args,
    calls: (o.call ?? []).map(parseCall),
    timeoutMs,
    ...(o.log !== undefined ? { log: o.log } : {}),
    ...(o.name !== undefined ? { name: o.name } : {}),
  };
  return plan;
}
