/**
 * What MCP allows on the wire, per protocol revision: methods by direction and kind, eras, batches,
 * the `_meta` keys of the stateless revision. Checked against schema/<version>/schema.ts of
 * modelcontextprotocol/modelcontextprotocol (ClientRequest, ClientNotification, ServerRequest,
 * ServerNotification of each revision).
 */

export type Direction = 'client' | 'server';

/** Revisions whose method tables mcp-tap knows, oldest first. */
export const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type KnownVersion = (typeof KNOWN_VERSIONS)[number];

/** The first revision without initialize: version, client info and capabilities travel in each request's `_meta`. */
export const FIRST_STATELESS_VERSION = '2026-07-28';

/** `_meta` keys of the stateless revision. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** `_meta` key of a message that belongs to a task (2025-11-25 and the tasks extension): `{taskId}`. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** MCP error codes beyond JSON-RPC's, by name. */
export const MCP_ERRORS: Readonly<Record<number, string>> = {
  [-32002]: 'resource not found (2025-11-25 and earlier)',
  [-32020]: 'header mismatch',
  [-32021]: 'missing required client capability',
  [-32022]: 'unsupported protocol version',
  [-32042]: 'URL elicitation required (2025-11-25)',
};

/** Error code of UnsupportedProtocolVersionError (2026-07-28): `data: {supported, requested}`. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** `handshake`: initialize → result → initialized (2025-11-25 and earlier). `stateless`: 2026-07-28 and later. */
export type Era = 'handshake' | 'stateless';

/** The era a version string belongs to (dates compare as strings). */
export function eraOf(version: string): Era {
  return version >= FIRST_STATELESS_VERSION ? 'stateless' : 'handshake';
}

/** True when the revision allows JSON-RPC batches (only 2025-03-26 did). */
export function batchAllowed(version: string): boolean {
  return version === '2025-03-26';
}

/** Methods one side may send, split by kind. */
interface SideTable {
  requests: ReadonlySet<string>;
  notifications: ReadonlySet<string>;
}
interface VersionTable {
  client: SideTable;
  server: SideTable;
  /** Every method of the revision, any side, any kind. */
  all: ReadonlySet<string>;
}

const C_REQ_2024 = [
  'ping',
  'initialize',
  'completion/complete',
  'logging/setLevel',
  'prompts/get',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'tools/call',
  'tools/list',
];
const C_NOTE_2024 = [
  'notifications/cancelled',
  'notifications/progress',
  'notifications/initialized',
  'notifications/roots/list_changed',
];
const S_REQ_2024 = ['ping', 'sampling/createMessage', 'roots/list'];
const S_NOTE_2024 = [
  'notifications/cancelled',
  'notifications/progress',
  'notifications/message',
  'notifications/resources/updated',
  'notifications/resources/list_changed',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
];
const TASKS = ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'];

function table(cReq: string[], cNote: string[], sReq: string[], sNote: string[]): VersionTable {
  return {
    client: { requests: new Set(cReq), notifications: new Set(cNote) },
    server: { requests: new Set(sReq), notifications: new Set(sNote) },
    all: new Set([...cReq, ...cNote, ...sReq, ...sNote]),
  };
}

const TABLES: Record<KnownVersion, VersionTable> = {
  '2024-11-05': table(C_REQ_2024, C_NOTE_2024, S_REQ_2024, S_NOTE_2024),
  '2025-03-26': table(C_REQ_2024, C_NOTE_2024, S_REQ_2024, S_NOTE_2024),
  '2025-06-18': table(C_REQ_2024, C_NOTE_2024, [...S_REQ_2024, 'elicitation/create'], S_NOTE_2024),
  '2025-11-25': table(
    [...C_REQ_2024, ...TASKS],
    [...C_NOTE_2024, 'notifications/tasks/status'],
    [...S_REQ_2024, 'elicitation/create', ...TASKS],
    [...S_NOTE_2024, 'notifications/elicitation/complete', 'notifications/tasks/status'],
  ),
  '2026-07-28': table(
    [
      'server/discover',
      'completion/complete',
      'prompts/get',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
      'resources/read',
      'subscriptions/listen',
      'tools/call',
      'tools/list',
    ],
    ['notifications/cancelled'],
    [],
    [...S_NOTE_2024, 'notifications/subscriptions/acknowledged'],
  ),
};

function union(key: Direction, kind: keyof SideTable): Set<string> {
  const s = new Set<string>();
  for (const v of KNOWN_VERSIONS) for (const m of TABLES[v][key][kind]) s.add(m);
  return s;
}

/** Any revision, merged: used while the version is not known yet. */
const UNION: VersionTable = (() => {
  const t: VersionTable = {
    client: { requests: union('client', 'requests'), notifications: union('client', 'notifications') },
    server: { requests: union('server', 'requests'), notifications: union('server', 'notifications') },
    all: new Set(),
  };
  for (const v of KNOWN_VERSIONS) for (const m of TABLES[v].all) (t.all as Set<string>).add(m);
  return t;
})();

/** True for a version string mcp-tap has a method table for. */
export function isKnownVersion(v: unknown): v is KnownVersion {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(TABLES, v);
}

/** Why a method is not allowed here; null when it is (or when it is not an MCP method mcp-tap knows). */
export interface MethodProblem {
  code: 'method-wrong-direction' | 'method-wrong-kind' | 'method-not-in-version';
  text: string;
}

/** The version checkMethod saw last, and its table. */
let lastVersion: string | undefined;
let lastTable: VersionTable = UNION;

/**
 * Checks `method` sent by `from` as a request (`isRequest`) or notification under `version` (undefined or
 * unknown: any revision). Methods no revision defines (extensions, custom methods) are never flagged; in
 * the stateless era neither are `tasks/*` and `notifications/tasks/status` (the tasks extension).
 */
export function checkMethod(
  version: string | undefined,
  from: Direction,
  isRequest: boolean,
  method: string,
): MethodProblem | null {
  // the version rarely changes within a session: its table is looked up once
  if (version !== lastVersion) {
    lastVersion = version;
    lastTable = isKnownVersion(version) ? TABLES[version] : UNION;
  }
  const t = lastTable;
  const own = t[from];
  if (isRequest ? own.requests.has(method) : own.notifications.has(method)) return null;
  const known = isKnownVersion(version);
  if (!UNION.all.has(method)) return null; // not an MCP method: an extension or a custom one
  const other = t[from === 'client' ? 'server' : 'client'];
  const what = isRequest ? 'request' : 'notification';
  const under = known ? ` under ${version}` : '';
  if (isRequest ? own.notifications.has(method) : own.requests.has(method)) {
    return {
      code: 'method-wrong-kind',
      text: `${method} is a ${isRequest ? 'notification' : 'request'}${under}, but the ${from} sent it as a ${what}${isRequest ? ' (with an id)' : ' (without an id)'}`,
    };
  }
  if (other.requests.has(method) || other.notifications.has(method)) {
    const peer = from === 'client' ? 'server' : 'client';
    return {
      code: 'method-wrong-direction',
      text: `${method} is sent by the ${peer}${under}, not by the ${from}; the ${peer} will not expect it from the ${from}`,
    };
  }
  if (!known) return null;
  // the tasks extension: its requests and its status notification (named as in 2025-11-25)
  if (eraOf(version) === 'stateless' && (method.startsWith('tasks/') || method === 'notifications/tasks/status')) return null;
  const stateless = eraOf(version) === 'stateless';
  const hint =
    stateless && from === 'server' && isRequest
      ? ' (this revision has no server→client requests on stdio: servers ask through input_required results)'
      : '';
  return {
    code: 'method-not-in-version',
    text: `${method} is not part of MCP ${version}, the version in use${hint}`,
  };
}

/** Requests whose answer identifies a `target`: the param that names what they act on. */
export function targetParam(method: string): 'name' | 'uri' | undefined {
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      return 'name';
    case 'resources/read':
      return 'uri';
    default:
      return undefined;
  }
}
