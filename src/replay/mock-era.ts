/**
 * The recorded server's protocol era, and how the mock meets a client of the other era as that server
 * would (docs/specification/2026-07-28/basic/versioning.mdx, "Backward Compatibility"). Pure.
 *
 * - A handshake-era recording (the session began with initialize): a `server/discover` probe gets
 *   -32601 "Method not found", as an older server answers it; the client falls back to initialize.
 * - A stateless recording (2026-07-28: server/discover, `_meta` on every request): `initialize` is
 *   answered from the recorded `server/discover` result, as a dual-era server serves a legacy client —
 *   the client's version if it is a handshake-era one the server may speak, the recorded capabilities
 *   (less what only subscriptions/listen delivers), serverInfo and instructions; results then go out
 *   without the members only the stateless revision has. Without a recorded discover result there is nothing to answer from:
 *   initialize is refused with an error naming the mismatch (and the mock says so at start-up).
 */
import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { eraOf, isKnownVersion, KNOWN_VERSIONS, META } from '../protocol/mcp.js';
import { paramsOf, type RecMsg, type RecordedSession } from './recorded.js';

/** What the recording says about the server's era. */
export interface RecordedEra {
  era: 'handshake' | 'stateless' | 'unknown';
  /** handshake: the recorded initialize request and the version the server answered. */
  initialize?: RecMsg;
  answeredVersion?: string;
  /** stateless: the first server/discover result, and the request that got it. */
  discover?: { request: RecMsg; result: JsonObject };
  /** stateless: the versions the recorded requests used. */
  versions: string[];
  /** stateless: serverInfo, from the discover result's or any result's `_meta`. */
  serverInfo?: unknown;
}

/** The answer a handshake-era server gives a `server/discover` probe (the SDKs' words). */
export const METHOD_NOT_FOUND = { code: -32601, message: 'Method not found' };

/** UnsupportedProtocolVersionError (2026-07-28): `data: {supported, requested}`. */
const UNSUPPORTED_VERSION = -32022;

const LATEST_HANDSHAKE = [...KNOWN_VERSIONS].reverse().find((v) => eraOf(v) === 'handshake')!;

const resultOf = (m: RecMsg | undefined): JsonObject | undefined => {
  const r = isObject(m?.msg) ? m.msg['result'] : undefined;
  return isObject(r) ? r : undefined;
};

/** The recorded server's era, from the recorded exchanges (the first one that says). */
export function recordedEra(session: RecordedSession): RecordedEra {
  const asks = session.messages.filter((m) => m.from === 'client' && m.kind === 'request');
  const init = asks.find((m) => m.method === 'initialize' && resultOf(session.answerOf(m)) !== undefined);
  if (init) {
    const v = resultOf(session.answerOf(init))!['protocolVersion'];
    return { era: 'handshake', initialize: init, ...(typeof v === 'string' ? { answeredVersion: v } : {}), versions: typeof v === 'string' ? [v] : [] };
  }
  const versions = new Set<string>();
  for (const m of asks) {
    const meta = paramsOf(m.msg);
    const v = isObject(meta) && isObject(meta['_meta']) ? meta['_meta'][META.protocolVersion] : undefined;
    if (typeof v === 'string' && eraOf(v) === 'stateless') versions.add(v);
  }
  const probe = asks.find((m) => m.method === 'server/discover' && resultOf(session.answerOf(m)) !== undefined);
  if (!probe && versions.size === 0) return { era: 'unknown', versions: [] };
  const out: RecordedEra = { era: 'stateless', versions: [...versions] };
  if (probe) out.discover = { request: probe, result: resultOf(session.answerOf(probe))! };
  // the server names itself in its results' _meta (2026-07-28), the discover result first
  // one result at a time: the bodies of a session read from a file are read again when asked for
  const infoOf = (r: JsonObject | undefined): unknown => (isObject(r?.['_meta']) ? r['_meta'][META.serverInfo] : undefined);
  let info = infoOf(out.discover?.result);
  for (const m of session.messages) {
    if (info !== undefined) break;
    if (m.from === 'server') info = infoOf(resultOf(m));
  }
  if (info !== undefined) out.serverInfo = info;
  return out;
}

/**
 * The start-up line for a stateless recording, which a handshake-era client may meet; `refuses`: such
 * a client will be refused (said even with --quiet).
 */
export function eraNote(e: RecordedEra): { text: string; refuses: boolean } | undefined {
  // a handshake-era recording says nothing until a probe comes (most clients of it never probe)
  if (e.era !== 'stateless') return undefined;
  if (e.discover) {
    return { text: `the recording is stateless (${e.versions.join(', ') || '2026-07-28'}): a client that opens with initialize is answered from the recorded server/discover result (#${e.discover.request.seq}), as a dual-era server would`, refuses: false };
  }
  return { text: `the recording is stateless (${e.versions.join(', ')}) and has no server/discover answer: a client that opens with initialize (the handshake era) will be refused, there is nothing to answer it from`, refuses: true };
}

/** How the mock answers `initialize` on a stateless recording: a result, or an error; and why, for stderr. */
export function initializeFromDiscover(e: RecordedEra, params: unknown, serverName: string | undefined): { result?: JsonObject; error?: JsonObject; say: string } {
  const offered = isObject(params) && typeof params['protocolVersion'] === 'string' ? params['protocolVersion'] : undefined;
  const supported = e.discover && Array.isArray(e.discover.result['supportedVersions']) ? (e.discover.result['supportedVersions'] as unknown[]).filter((v): v is string => typeof v === 'string') : e.versions;
  if (!e.discover) {
    const message = `mcp-tap mock: the recorded server speaks ${supported.join(', ')} (stateless, no initialize) and the recording has no server/discover answer to answer initialize from; this client opened with initialize${offered !== undefined ? ` (${offered})` : ''}, the handshake era`;
    return { error: { code: UNSUPPORTED_VERSION, message, data: { supported, requested: offered ?? null } }, say: `${message.replace('mcp-tap mock: ', '')}: refused` };
  }
  const legacy = supported.filter((v) => eraOf(v) === 'handshake');
  // a dual-era server answers the client's handshake version when it speaks it (discover may list only
  // the modern versions: the Python SDK's does), else the newest it lists
  const version =
    offered !== undefined && legacy.includes(offered)
      ? offered
      : legacy.length > 0
        ? legacy.sort().at(-1)!
        : offered !== undefined && isKnownVersion(offered) && eraOf(offered) === 'handshake'
          ? offered
          : LATEST_HANDSHAKE;
  const d = e.discover.result;
  const result: JsonObject = {
    protocolVersion: version,
    capabilities: legacyCapabilities(d['capabilities']),
    serverInfo: e.serverInfo ?? { name: serverName ?? 'mcp-tap mock', version: '' },
  };
  if (typeof d['instructions'] === 'string') result['instructions'] = d['instructions'];
  return {
    result,
    say: `initialize (${offered ?? 'no version'}) answered from the recorded server/discover result #${e.discover.request.seq} with ${version}: the recording is stateless, and a dual-era server serves a handshake-era client so; answers go out without resultType`,
  };
}

/**
 * The recorded (2026-07-28) capabilities as a handshake-era client is served: that revision delivers
 * change notifications only on `subscriptions/listen`, which such a client cannot open, so the flags
 * that promise them (`listChanged`, `resources.subscribe`) are false; the rest as recorded.
 */
function legacyCapabilities(caps: unknown): JsonObject {
  if (!isObject(caps)) return {};
  const out: JsonObject = { ...caps };
  for (const k of ['prompts', 'resources', 'tools'] as const) {
    const c = out[k];
    if (!isObject(c)) continue;
    const copy: JsonObject = { ...c };
    if ('listChanged' in copy) copy['listChanged'] = false;
    if (k === 'resources' && 'subscribe' in copy) copy['subscribe'] = false;
    out[k] = copy;
  }
  return out;
}

/** Result members only the stateless revision has (result type, caching hints, the serverInfo stamp). */
const STATELESS_ONLY = ['resultType', 'ttlMs', 'cacheScope'];

/**
 * A recorded stateless result as a dual-era server sends it to a handshake-era client: without
 * `resultType: "complete"`, the caching hints and the `_meta` serverInfo stamp. Other results (an
 * input_required one) as recorded.
 */
export function legacyResult(result: unknown): unknown {
  if (!isObject(result) || result['resultType'] !== 'complete') return result;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(result)) if (!STATELESS_ONLY.includes(k)) out[k] = v;
  const meta = out['_meta'];
  if (isObject(meta) && META.serverInfo in meta) {
    const { [META.serverInfo]: _s, ...rest } = meta;
    void _s;
    if (Object.keys(rest).length > 0) out['_meta'] = rest;
    else delete out['_meta'];
  }
  return out;
}
