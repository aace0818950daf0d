/**
 * The rules `mcp-tap check` reports: every note code the log can carry (src/session/findings.ts) plus
 * check's own (unanswered requests, crashes, schema problems, assertions). Rule ids are a public
 * contract — SARIF rule ids, JUnit test names, `--format json` — listed in docs/check.md.
 */
import { LENS_NOTE_CODES } from '../lens/lenses.js';
import { SECURITY_RULES, securityRule, type SecurityRule } from '../lens/security/rules.js';
import { NOTE_CODES } from '../session/findings.js';

/**
 * What a rule is about; `--fail-on` names categories. `info` is never a failure: it marks notes about
 * the log itself (a shortened copy, an mcp-tap bug), not about the peers.
 */
export type Category = 'findings' | 'errors' | 'is-error' | 'unanswered' | 'assertions' | 'schema' | 'spec' | 'security' | 'info';

/** Categories whose rule ids a baseline counts as findings (and `diff` reports when new). */
export const FINDING_CATEGORIES: readonly Category[] = ['findings', 'spec'];

/** A rule: its stable id, category, and what to tell the reader. */
export interface RuleInfo {
  id: string;
  category: Category;
  /** One line: what happened. */
  summary: string;
  /** What to do about it. */
  help: string;
  /** The spec section (or JSON-RPC spec) the rule rests on, when there is one. */
  helpUri?: string;
  /** Security rules: CVSS-like 0–10 score (SARIF `properties.security-severity`). */
  securitySeverity?: number;
}

const SPEC = 'https://modelcontextprotocol.io/specification/2025-11-25';
const STDIO = `${SPEC}/basic/transports#stdio`;
const MESSAGES = `${SPEC}/basic#messages`;
const LIFECYCLE = `${SPEC}/basic/lifecycle`;
const PROGRESS = `${SPEC}/basic/utilities/progress`;
const CANCEL = `${SPEC}/basic/utilities/cancellation`;
const SCHEMA_REF = `${SPEC}/schema`;
const TOOLS = `${SPEC}/server/tools`;
const JSONRPC = 'https://www.jsonrpc.org/specification';

const SECURITY_HELP = 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations';

/** A security rule's help, spec link and category. */
function securityHelp(r: SecurityRule): { help: string; helpUri: string; category: Category } {
  return { help: r.help, helpUri: SECURITY_HELP, category: 'security' };
}

/** Help and category for the note codes (the log's and the lenses'); summaries come from NOTE_CODES and LENS_NOTE_CODES. A test keeps the lists in step. */
export const NOTE_HELP: Record<string, { help: string; helpUri?: string; category?: Category }> = {
  'stdout-not-json': {
    help: 'Write only JSON-RPC messages to stdout, one per line. Send logs, banners and debug output to stderr (console.error in Node, print(..., file=sys.stderr) in Python).',
    helpUri: STDIO,
  },
  'stdin-not-json': {
    help: 'The client (host) sent a line that is not JSON: fix the client or the wrapper that writes to the server\'s stdin.',
    helpUri: STDIO,
  },
  'not-jsonrpc': {
    help: 'Every message needs "jsonrpc": "2.0" and the shape of a request (method and id), a notification (method, no id) or a response (id and exactly one of result and error).',
    helpUri: MESSAGES,
  },
  'invalid-utf8': { help: 'Encode every message as UTF-8.', helpUri: STDIO },
  'partial-line': {
    help: 'End every message with a newline (\\n) and flush stdout before exiting; the peer never receives a line without its newline.',
    helpUri: STDIO,
  },
  truncated: {
    help: 'Nothing to fix unless the size is unintended: the log keeps a shortened copy. Raise --max-log-bytes to keep whole copies.',
    category: 'info',
  },
  'unknown-id': {
    help: 'Answer only requests you received, echoing the request id exactly, with its type (1 and "1" are different ids).',
    helpUri: `${JSONRPC}#response_object`,
  },
  'duplicate-answer': { help: 'Send exactly one response per request.', helpUri: MESSAGES },
  'id-reused': { help: 'Give every request of a session a fresh id (a counter works).', helpUri: MESSAGES },
  'null-id-request': { help: 'Use a string or an integer as request id; MCP does not allow id null.', helpUri: MESSAGES },
  'result-and-error': { help: 'A response carries either result or error, never both.', helpUri: MESSAGES },
  'before-initialize': {
    help: 'Clients: wait for the initialize answer before other requests. Servers: wait for notifications/initialized before sending requests. Only ping (and logging) may come earlier.',
    helpUri: `${LIFECYCLE}#initialization`,
  },
  'cancel-initialize': { help: 'Never cancel initialize; close the connection instead.', helpUri: CANCEL },
  'cancel-unknown-id': { help: 'Cancel only requests you sent yourself and that are still in progress.', helpUri: CANCEL },
  'progress-unknown-token': {
    help: 'Send notifications/progress only with the progressToken from the request\'s params._meta, and only while that request is in progress.',
    helpUri: PROGRESS,
  },
  'progress-not-increasing': { help: 'Increase "progress" with every notification, even when the total is unknown.', helpUri: PROGRESS },
  'progress-token-reused': { help: 'Use a progress token that no other active request carries.', helpUri: PROGRESS },
  'method-wrong-direction': {
    help: 'Send each method only in its direction: e.g. tools/call goes client → server, sampling/createMessage server → client.',
    helpUri: SCHEMA_REF,
  },
  'method-wrong-kind': {
    help: 'Send request methods as requests (with an id) and notification methods as notifications (without an id).',
    helpUri: SCHEMA_REF,
  },
  'method-not-in-version': {
    help: 'Use only methods of the negotiated protocol version, or negotiate a version that has them.',
    helpUri: `${LIFECYCLE}#version-negotiation`,
  },
  'version-not-offered': {
    help: 'Clients: send only a protocol version the server lists in supportedVersions (server/discover) or in the data of its -32022 error. (An initialize answer with an older version than offered is negotiation, not a finding.)',
    helpUri: `${LIFECYCLE}#version-negotiation`,
  },
  'missing-protocol-version': {
    help: 'Since 2026-07-28 every request carries params._meta["io.modelcontextprotocol/protocolVersion"].',
    helpUri: 'https://modelcontextprotocol.io/specification/draft/basic',
  },
  'header-mismatch': {
    help: 'Over Streamable HTTP, 2026-07-28 clients mirror the body into MCP-Protocol-Version (= _meta protocolVersion), Mcp-Method (= method) and, for tools/call, resources/read and prompts/get, Mcp-Name (= params.name or params.uri, non-ASCII as =?base64?…?=); the server refuses a missing or different one with 400 and -32020.',
    helpUri: 'https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata',
  },
  'batch-not-allowed': {
    help: 'Send one message per line. JSON-RPC batches were allowed only in 2025-03-26, and never for initialize.',
    helpUri: 'https://modelcontextprotocol.io/specification/2025-03-26/basic#batching',
  },
  'empty-batch': { help: 'Never send an empty array.', helpUri: `${JSONRPC}#batch` },
  'pending-overflow': {
    help: 'Very many requests were left unanswered at once; see the unanswered-request results and answer (or cancel) every request.',
    category: 'info',
  },
  'analysis-error': {
    help: 'A bug in mcp-tap, not in the peers: please report it with the record (mcp-tap export).',
    category: 'info',
  },
  'schema-violation': {
    help: 'Send every member the schema of the negotiated protocol version requires, with its type (the message names each JSON Pointer, what is expected and what was found, and links the type in the schema reference). Hosts built on the official SDKs validate what they receive: a result that does not match makes the request fail, a notification is dropped.',
    helpUri: SCHEMA_REF,
    category: 'spec',
  },
  // the security lens' codes (src/lens/security/rules.ts): help and category from its rule table
  ...Object.fromEntries(SECURITY_RULES.filter((r) => r.scope === 'session').map((r) => [r.id, securityHelp(r)])),
};

/** check's own rules: about the session as a whole, the tool definitions and the assertions. */
export const CHECK_RULES: readonly RuleInfo[] = [
  {
    id: 'unanswered-request',
    category: 'unanswered',
    summary: 'a request never got an answer',
    help: 'Answer every request exactly once, with a result or an error, also on failure paths: an exception in a handler must become an error response. Requests that were cancelled are not counted.',
    helpUri: `${SPEC}/basic#responses`,
  },
  {
    id: 'jsonrpc-error',
    category: 'errors',
    summary: 'a request was answered with a JSON-RPC error',
    help: 'Expected for bad input; otherwise fix the handler. -32601 (method not found) usually means a method the server does not implement although it declared the capability.',
    helpUri: `${SPEC}/basic#responses`,
  },
  {
    id: 'tool-is-error',
    category: 'is-error',
    summary: 'a tool call returned a result with isError: true',
    help: 'The tool reported a failure to the model. Check the arguments given (--call) and the tool\'s implementation.',
    helpUri: `${TOOLS}#error-handling`,
  },
  {
    id: 'task-failed',
    category: 'errors',
    summary: 'a request answered with a task ended failed',
    help: 'The task reached status failed, or tasks/result returned an error. Look at the task\'s statusMessage (tasks/get, notifications/tasks/status) and the final result in the log (mcp-tap export).',
    helpUri: `${SPEC}/basic/utilities/tasks`,
  },
  {
    id: 'initialize-timeout',
    category: 'findings',
    summary: 'the server did not answer initialize in time',
    help: 'Read stdin line by line and answer initialize promptly; do slow setup after the handshake. Hosts give up after a timeout and show the server as failed.',
    helpUri: `${LIFECYCLE}#initialization`,
  },
  {
    id: 'initialize-failed',
    category: 'findings',
    summary: 'the server answered initialize with an error',
    help: 'Hosts cannot use a server that refuses initialize. Accept the client\'s protocolVersion or answer with one you support.',
    helpUri: `${LIFECYCLE}#initialization`,
  },
  {
    id: 'server-exited-early',
    category: 'findings',
    summary: 'the server exited while the client was still connected',
    help: 'Look at the server\'s stderr in the log (mcp-tap export) for the crash. A stdio server keeps running until its stdin closes.',
    helpUri: `${LIFECYCLE}#shutdown`,
  },
  {
    id: 'server-exit-nonzero',
    category: 'findings',
    summary: 'the server exited with a non-zero status after its stdin closed',
    help: 'When stdin closes, finish the pending work and exit with status 0; a non-zero status looks like a crash to hosts.',
    helpUri: `${LIFECYCLE}#shutdown`,
  },
  {
    id: 'server-spawn-failed',
    category: 'findings',
    summary: 'the server command could not be started',
    help: 'Check the command, PATH and the executable bit; the log\'s spawn-error event says what failed.',
  },
  {
    id: 'sdk-rejected-answer',
    category: 'findings',
    summary: 'the official TypeScript SDK client rejected the server\'s answer',
    help: 'The answer does not match what the MCP schema (or the tool\'s outputSchema) requires; hosts built on the SDK fail the same way. The message quotes the SDK\'s error.',
    helpUri: SCHEMA_REF,
  },
  {
    id: 'tool-schema-not-object',
    category: 'schema',
    summary: 'a tool\'s inputSchema (or outputSchema) is missing or its root is not an object schema',
    help: 'Give every tool an inputSchema whose root is {"type": "object", ...} (also for tools without arguments: {"type": "object", "properties": {}}); the same holds for outputSchema.',
    helpUri: `${TOOLS}#tool`,
  },
  {
    id: 'tool-schema-required-missing',
    category: 'schema',
    summary: 'a schema\'s "required" names a property it does not define',
    help: 'List in "required" only names that appear in "properties" (check for typos and renamed arguments).',
    helpUri: `${TOOLS}#tool`,
  },
  {
    id: 'tool-schema-invalid',
    category: 'schema',
    summary: 'a tool\'s schema is not a valid JSON Schema',
    help: 'Fix the schema so that it validates against its JSON Schema meta-schema (2020-12 unless "$schema" says otherwise); hosts reject or silently drop tools with invalid schemas.',
    helpUri: `${SPEC}/basic#json-schema-usage`,
  },
  {
    id: 'max-ms-exceeded',
    category: 'assertions',
    summary: 'a request took longer than its --max-ms limit (or got no answer)',
    help: 'Make the method or tool faster, or raise the limit given with --max-ms.',
  },
  {
    id: 'expected-tool-missing',
    category: 'assertions',
    summary: 'a tool named with --expect-tool is not in the server\'s tools/list',
    help: 'Register the tool (check its name), or make sure the session lists tools (check --run does).',
    helpUri: `${TOOLS}#listing-tools`,
  },
  {
    id: 'max-context-tokens-exceeded',
    category: 'assertions',
    summary: 'the tool definitions and instructions cost more tokens than --max-context-tokens',
    help: 'Every host sends the definitions with every request, before the user types anything. Shorten descriptions and schemas of the tools named (the largest first), or split the server so users enable only what they need.',
  },
  {
    id: 'max-result-tokens-exceeded',
    category: 'assertions',
    summary: 'a tool result cost more tokens than --max-result-tokens',
    help: 'Large results fill the model\'s context and crowd out the conversation. Page or summarise the result, or return a resource link instead of the content.',
  },
  {
    id: 'forbidden-tool-present',
    category: 'assertions',
    summary: 'a tool named with --forbid-tool is offered or called',
    help: 'Remove the tool from the server, or from the calls made.',
    helpUri: `${TOOLS}#listing-tools`,
  },
  // `mcp-tap audit`'s rules across servers (the security lens' table, scope audit)
  ...SECURITY_RULES.filter((r) => r.scope === 'audit').map((r): RuleInfo => ({ id: r.id, summary: r.summary, ...securityHelp(r) })),
];

const GENERIC_HELP = 'See docs/log-format.md for this finding code.';

/** Every rule: the log's note codes (in the order findings.ts lists them), the lenses' codes, then check's own. */
export function allRules(): RuleInfo[] {
  const out: RuleInfo[] = [];
  for (const [id, summary] of [...Object.entries(NOTE_CODES), ...Object.entries(LENS_NOTE_CODES)]) {
    const h = NOTE_HELP[id];
    out.push({
      id,
      category: h?.category ?? 'findings',
      summary,
      help: h?.help ?? GENERIC_HELP,
      ...(h?.helpUri ? { helpUri: h.helpUri } : {}),
    });
  }
  out.push(...CHECK_RULES);
  // code scanning ranks security alerts by their score (SARIF properties.security-severity)
  return out.map((r) => {
    const sec = securityRule(r.id);
    return sec ? { ...r, securitySeverity: sec.score } : r;
  });
}

/** The security category's rules (session and audit), for `audit`'s SARIF. */
export const securityCheckRules = (): RuleInfo[] => allRules().filter((r) => r.category === 'security');

let byId: Map<string, RuleInfo> | undefined;

/** The rule for an id; a note code this version does not know (a newer log) gets a generic finding rule. */
export function ruleFor(id: string): RuleInfo {
  byId ??= new Map(allRules().map((r) => [r.id, r]));
  return byId.get(id) ?? { id, category: 'findings', summary: `finding ${id}`, help: GENERIC_HELP };
}
