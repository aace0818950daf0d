/**
 * The input and output schemas of `mcp-tap mcp`'s tools (zod, as the SDK registers them; hosts see
 * them as JSON Schema and the SDK client validates every structuredContent against its outputSchema).
 * Objects that are another command's JSON contract (stats --json, check --format json, the session
 * summary) are open: their own docs define them, and a field added there does not break a client here.
 */
import { z } from 'zod';

const sessionArg = z.string().min(1).max(200).describe('A session id or a unique prefix of one (from list_sessions); default: the newest session');
const logArg = z.string().min(1).max(255).describe('A log file name from list_sessions, when the same session id is in several logs');
const cursorArg = z.string().max(8192).describe('nextCursor of the previous answer, to read on');
const limitArg = (max: number, dflt: number) => z.number().int().min(1).max(max).describe(`Items per answer (default ${dflt}; fewer when they would not fit the answer budget)`);
const next = z.string().describe('Pass as cursor to read on; absent on the last page');
const warnings = z.array(z.string()).describe('Logs or lines that could not be read');
const note = z.object({ code: z.string(), text: z.string() });
const id = z.union([z.string(), z.number(), z.null()]);

/** list_sessions */
export const listSessionsInput = z.object({
  server: z.string().max(200).optional().describe('Only servers whose name contains this (any case)'),
  since: z.string().max(40).optional().describe('Only sessions started since then: an ISO 8601 time, or an age like 30m, 6h, 2d'),
  errorsOnly: z.boolean().optional().describe('Only sessions with error answers, isError results or findings'),
  log: logArg.optional(),
  limit: limitArg(200, 50).optional(),
  cursor: cursorArg.optional(),
});

const sessionRow = z.object({
  id: z.string(),
  uri: z.string().describe('Its Markdown transcript as a resource'),
  log: z.string(),
  server: z.string().optional(),
  started: z.string().optional().describe('ISO 8601'),
  durationMs: z.number().optional(),
  messages: z.number(),
  errors: z.number().describe('Error answers'),
  toolErrors: z.number().describe('tools/call results with isError'),
  findings: z.number().describe('Records with findings'),
  ended: z.boolean().describe('mcp-tap closed the session (false: running, or mcp-tap was killed)'),
  exitCode: z.number().nullable().optional(),
  signal: z.string().nullable().optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
});

export const listSessionsOutput = z.object({
  source: z.string().describe('The log directory (or log) read'),
  total: z.number().describe('Sessions that match'),
  sessions: z.array(sessionRow),
  nextCursor: next.optional(),
  warnings: warnings.optional(),
});

/** get_session */
export const getSessionInput = z.object({ session: sessionArg.optional(), log: logArg.optional() });

const pending = z.object({ from: z.enum(['client', 'server']), id, method: z.string(), seq: z.number() });

export const getSessionOutput = z.object({
  id: z.string(),
  uri: z.string(),
  log: z.string(),
  started: z.string().optional(),
  header: z.looseObject({ session: z.string() }).describe('Server and client: versions, capabilities, command line, exit'),
  kinds: z.record(z.string(), z.number()).describe('Records by kind'),
  errors: z.number(),
  refusedProbes: z.number(),
  isErrorResults: z.number(),
  findings: z.object({ total: z.number(), byCode: z.array(z.object({ code: z.string(), count: z.number() })) }),
  unanswered: z.array(pending),
  unansweredCount: z.number(),
  cancelled: z.array(pending),
  slowest: z.array(z.looseObject({ seq: z.number(), method: z.string(), ms: z.number(), outcome: z.string() })),
  tasks: z.looseObject({ count: z.number() }),
  lost: z.number().describe('Records the log says it could not keep'),
  omitted: z.object({ unanswered: z.number(), cancelled: z.number() }).optional().describe('Entries left out to fit the answer budget'),
});

/** search_messages */
const KINDS = ['request', 'response', 'error', 'notification', 'batch', 'invalid', 'stderr', 'event'] as const;

export const searchMessagesInput = z.object({
  session: z.string().min(1).max(200).optional().describe('A session id or unique prefix; default: every session of every log'),
  log: logArg.optional(),
  method: z.array(z.string().min(1).max(200)).max(20).optional().describe('Method globs, e.g. tools/*, *list*'),
  tool: z.array(z.string().min(1).max(200)).max(20).optional().describe('Tool name globs (also a prompt or resource asked for), e.g. get_*: the calls and their answers'),
  from: z.enum(['client', 'server', 'proxy']).optional().describe('Only what this side sent (proxy: mcp-tap\'s own events)'),
  kind: z.array(z.enum(KINDS)).optional(),
  errors: z.boolean().optional().describe('Only problems: error answers, isError results, findings, invalid lines, failures'),
  text: z.string().min(1).max(500).optional().describe('Only records whose method, target, body or findings contain this (any case)'),
  slowerThanMs: z.number().min(0).optional().describe('Only answers that took at least this long'),
  limit: limitArg(200, 50).optional(),
  cursor: cursorArg.optional(),
});

const match = z.object({
  log: z.string(),
  session: z.string(),
  seq: z.number(),
  time: z.string(),
  from: z.string(),
  kind: z.string(),
  id: id.optional(),
  method: z.string().optional(),
  target: z.string().optional(),
  ms: z.number().optional(),
  reqSeq: z.number().optional().describe('The request this answers'),
  isError: z.boolean().optional(),
  event: z.string().optional(),
  notes: z.array(note).optional(),
  preview: z.string().optional().describe('The start of the body, one line'),
});

export const searchMessagesOutput = z.object({
  matches: z.array(match),
  complete: z.boolean().describe('Every record was searched (false: read on with nextCursor)'),
  nextCursor: next.optional(),
  warnings: warnings.optional(),
});

/** get_message */
export const getMessageInput = z.object({
  session: z.string().min(1).max(200).describe('A session id or a unique prefix of one'),
  seq: z.number().int().min(1).describe('The record\'s seq (from search_messages)'),
  log: logArg.optional(),
});

const message = z.object({
  seq: z.number(),
  line: z.number(),
  time: z.string(),
  from: z.string(),
  kind: z.string(),
  id: id.optional(),
  method: z.string().optional(),
  target: z.string().optional(),
  ms: z.number().optional(),
  reqSeq: z.number().optional(),
  isError: z.boolean().optional(),
  event: z.string().optional(),
  notes: z.array(note).optional(),
  bytes: z.number().optional(),
  body: z.unknown().optional().describe('The message as JSON (an event: its fields)'),
  raw: z.string().optional().describe('A line that is not JSON, or a stderr line'),
  loggedShortened: z.boolean().optional().describe('The log holds a shortened copy'),
  shortened: z.boolean().optional().describe('Shortened here to fit the answer budget'),
});

export const getMessageOutput = z.object({
  log: z.string(),
  session: z.string(),
  message,
  request: message.optional().describe('The request this answers'),
  answer: message.optional().describe('The answer to this request'),
});

/** session_stats */
export const sessionStatsInput = z.object({
  session: z.string().min(1).max(200).optional().describe("A session id or unique prefix, or 'all' for every session of the log (pooled); default: the newest session"),
  log: logArg.optional(),
  cursor: cursorArg.optional(),
});

export const sessionStatsOutput = z.looseObject({
  log: z.string(),
  sessions: z.array(z.looseObject({ session: z.string() })),
  methods: z.array(z.looseObject({ method: z.string(), count: z.number() })),
  tools: z.array(z.looseObject({ method: z.string(), count: z.number() })),
  rowsFrom: z.number().optional().describe('Position of this page\'s first row among the methods, then tools, rows'),
  rowsTotal: z.number().optional(),
  unansweredOmitted: z.number().optional().describe('Unanswered requests left out of the list to fit the answer budget'),
  nextCursor: next.optional(),
});

/** check_session */
export const checkSessionInput = z.object({
  session: sessionArg.optional(),
  log: logArg.optional(),
  failOn: z.array(z.string().max(100)).max(20).optional().describe('Categories that fail the check (as check --fail-on): findings, errors, is-error, unanswered, assertions, schema, all, none'),
  maxMs: z.array(z.string().max(300)).max(50).optional().describe('Latency limits (as check --max-ms), e.g. tools/call=500'),
  expectTools: z.array(z.string().max(200)).max(50).optional().describe('Tools the server must list'),
  forbidTools: z.array(z.string().max(200)).max(50).optional().describe('Tools the server must neither list nor be asked to run'),
  maxContextTokens: z.number().int().min(1).optional().describe('A token budget for the tool definitions and instructions (as check --max-context-tokens)'),
  maxResultTokens: z.number().int().min(1).optional().describe('A token budget for each tool result (as check --max-result-tokens)'),
  limit: limitArg(500, 100).optional(),
  cursor: cursorArg.optional(),
});

export const checkSessionOutput = z.looseObject({
  passed: z.boolean(),
  failed: z.array(z.string()),
  log: z.string(),
  session: z.string().nullable(),
  summary: z.looseObject({}),
  problems: z.array(z.looseObject({ ruleId: z.string(), category: z.string(), message: z.string() })),
  problemsFrom: z.number().describe('Position of the first problem of this page'),
  problemsTotal: z.number(),
  requests: z.array(z.looseObject({ seq: z.number(), method: z.string(), status: z.string() })).describe('The requests the problems of this page are about'),
  nextCursor: next.optional(),
});

/** diff_sessions */
export const diffSessionsInput = z.object({
  a: z.string().min(1).max(200).describe('The old side: a session id or unique prefix'),
  b: z.string().min(1).max(200).describe('The new side: a session id or unique prefix'),
  aLog: logArg.optional(),
  bLog: logArg.optional(),
  ratio: z.number().min(1).optional().describe('Latency regression: median of b at least this many times a (default 1.5)'),
  minMs: z.number().min(0).optional().describe('Latency regression: and at least this many ms slower (default 50)'),
  limit: limitArg(500, 100).optional(),
  cursor: cursorArg.optional(),
});

const side = z.object({ session: z.string(), log: z.string(), server: z.looseObject({}).nullable(), protocolVersion: z.string().nullable() });

export const diffSessionsOutput = z.object({
  a: side,
  b: side,
  identical: z.boolean(),
  thresholds: z.object({ ratio: z.number(), minMs: z.number() }),
  differences: z.array(z.looseObject({ area: z.string(), kind: z.string() })),
  differencesFrom: z.number().describe('Position of the first difference of this page'),
  differencesTotal: z.number(),
  notCompared: z.array(z.string()),
  nextCursor: next.optional(),
});
