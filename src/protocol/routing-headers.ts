/**
 * 2026-07-28 Streamable HTTP mirrors body fields into request headers so intermediaries can route
 * without parsing the body (specification, basic/transports/streamable-http, "Request Metadata"):
 * `MCP-Protocol-Version` = `_meta["io.modelcontextprotocol/protocolVersion"]`, `Mcp-Method` = `method`
 * (every request), `Mcp-Name` = `params.name` or `params.uri` (tools/call, resources/read, prompts/get),
 * a value outside plain ASCII sent as `=?base64?…?=`. A server must reject a missing or mismatching
 * header with 400 and -32020 (HeaderMismatch). Pure.
 */

/** The routing headers of one POST, as received (undefined: absent). */
export interface RoutingHeaders {
  protocolVersion?: string;
  method?: string;
  name?: string;
}

/** The first revision whose requests carry routing headers that must match the body. */
export const ROUTING_HEADERS_FROM = '2026-07-28';

/** The methods whose `Mcp-Name` is required. */
const NAMED = new Set(['tools/call', 'resources/read', 'prompts/get']);

/** Whether a request with this `MCP-Protocol-Version` header is held to its routing headers (dates compare as text). */
export function checksRoutingHeaders(protocolVersionHeader: string | undefined): boolean {
  return protocolVersionHeader !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(protocolVersionHeader.trim()) && protocolVersionHeader.trim() >= ROUTING_HEADERS_FROM;
}

/** A header value with the Base64 sentinel decoded (`=?base64?SGk=?=` → `Hi`); null when the sentinel holds no valid Base64. */
export function decodeHeaderValue(value: string): string | null {
  if (!(value.startsWith('=?base64?') && value.endsWith('?=') && value.length >= 11)) return value;
  const b64 = value.slice(9, -2);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return null;
  return Buffer.from(b64, 'base64').toString('utf8');
}

const show = (v: string): string => JSON.stringify(v.length > 80 ? `${v.slice(0, 79)}…` : v);

/**
 * What is wrong with a request's routing headers, one text per problem (empty: they agree with the
 * body). `name` is the body's `params.name`/`params.uri` when a string; `protocolVersion` its `_meta` one.
 * Held to them: a request whose `MCP-Protocol-Version` header or `_meta` version is 2026-07-28 or later
 * (a body of that revision must come with the header; an older request without it is left alone).
 */
export function routingHeaderProblems(h: RoutingHeaders, body: { method: string; name?: string | undefined; protocolVersion?: string | undefined }): string[] {
  const out: string[] = [];
  const hv = h.protocolVersion;
  const bv = body.protocolVersion;
  if (!checksRoutingHeaders(hv) && !checksRoutingHeaders(bv)) return out;
  if (hv === undefined) out.push(`no MCP-Protocol-Version header (the body's _meta protocolVersion is ${show(bv!)})`);
  else if (hv.trim() !== bv) {
    out.push(bv === undefined ? `MCP-Protocol-Version ${show(hv)} but the body has no _meta protocolVersion` : `MCP-Protocol-Version ${show(hv)} does not match the body's ${show(bv)}`);
  }
  if (h.method === undefined) out.push(`no Mcp-Method header (the body's method is ${show(body.method)})`);
  else if (h.method !== body.method) out.push(`Mcp-Method ${show(h.method)} does not match the body's method ${show(body.method)}`);
  if (NAMED.has(body.method)) {
    const hn = h.name;
    const decoded = hn === undefined ? undefined : decodeHeaderValue(hn);
    if (hn === undefined) {
      if (body.name !== undefined) out.push(`no Mcp-Name header (required for ${body.method}; the body names ${show(body.name)})`);
    } else if (decoded === null || decoded === undefined) out.push(`Mcp-Name ${show(hn)} is not valid Base64 inside its =?base64?…?= sentinel`);
    else if (decoded !== body.name) out.push(`Mcp-Name ${show(decoded)} does not match the body's ${show(body.name ?? '(none)')}`);
  }
  return out;
}
