/**
 * JSON-RPC 2.0 shapes and the few guards the analysis needs. Guards work on parsed JSON (`unknown`) and
 * never copy it.
 */

/** A request id exactly as parsed: `1` and `"1"` stay different (Map keys compare them by type too). */
export type RequestId = string | number;

/** A plain JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** JSON-RPC 2.0 standard error codes, by name (for texts and docs). */
export const JSONRPC_ERRORS: Readonly<Record<number, string>> = {
  [-32700]: 'parse error',
  [-32600]: 'invalid request',
  [-32601]: 'method not found',
  [-32602]: 'invalid params',
  [-32603]: 'internal error',
};

/** True for a JSON object (what `params`, `result` and messages must be). */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True for an id a request may carry: a string or a number (MCP asks for integers; JSON-RPC tolerates others). */
export function isRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** True for a well-formed JSON-RPC error object: integer code and string message. */
export function isErrorObject(v: unknown): boolean {
  return isObject(v) && Number.isInteger(v['code']) && typeof v['message'] === 'string';
}

/** `params._meta` of a message, when it is an object. */
export function metaOf(params: unknown): JsonObject | undefined {
  if (!isObject(params)) return undefined;
  const meta = params['_meta'];
  return isObject(meta) ? meta : undefined;
}

/** A short, safe rendering of an id for note texts (`1` vs `"1"` visible). */
export function showId(id: unknown): string {
  return typeof id === 'string' ? JSON.stringify(id.length > 64 ? id.slice(0, 64) + '…' : id) : String(id);
}
