/**
 * The discovery probe: a client that speaks both eras opens with `server/discover`; a server of the
 * handshake era answers -32601 (method not found) and the client falls back to initialize, and a server
 * that does not support the offered version answers -32022 with the versions it does. Either answer is
 * the protocol working, so every reader shows it as a refused probe, never as a failed call. Pure.
 */
import { UNSUPPORTED_PROTOCOL_VERSION } from './mcp.js';

/** The method a dual-era client probes with. */
export const PROBE_METHOD = 'server/discover';

/** -32601: method not found (JSON-RPC). */
const METHOD_NOT_FOUND = -32601;

/** True when an error answer with `code` to a client's `method` request is a refused discovery probe. */
export function isRefusedProbe(method: unknown, from: unknown, code: unknown): boolean {
  return method === PROBE_METHOD && from === 'client' && (code === METHOD_NOT_FOUND || code === UNSUPPORTED_PROTOCOL_VERSION);
}

/** The error code of a JSON-RPC error message (a record's `msg`), if it has one. */
export function errorCodeOf(msg: unknown): number | undefined {
  if (typeof msg !== 'object' || msg === null) return undefined;
  const e = (msg as { error?: unknown }).error;
  if (typeof e !== 'object' || e === null) return undefined;
  const c = (e as { code?: unknown }).code;
  return typeof c === 'number' ? c : undefined;
}

/** True when a log record (or batch element with its message) is an error answer refusing the discovery probe. */
export function isRefusedProbeAnswer(r: { kind?: unknown; from?: unknown; method?: unknown }, msg: unknown): boolean {
  // the answer comes from the server; the probe (its request) from the client
  return r.kind === 'error' && r.from === 'server' && isRefusedProbe(r.method, 'client', errorCodeOf(msg));
}

/** For readers that parse only envelopes: a record whose body tells a refused probe from a failed call. */
export function mayBeRefusedProbe(head: { kind?: unknown; method?: unknown }): boolean {
  return head.kind === 'error' && head.method === PROBE_METHOD;
}
