/**
 * Which exchanges HTTP mode decodes as MCP, whatever form of URL the user gave (pure). Hosts do not
 * always post to the path the user typed: an origin-only URL, a trailing slash, or a host configured
 * with `/mcp` in front of an upstream given as `/`. So the path is one signal among several: a request
 * is MCP when it goes to the given path, names a session, speaks a protocol version, accepts an SSE
 * answer (Streamable HTTP clients must), or (checked on its body) carries JSON-RPC. OAuth discovery
 * (`/.well-known/`) never is: its exchanges are logged by status only, never their bodies.
 */
import type { Line } from '../framing/line-splitter.js';

/** `mcp`: decode now; `probe`: a JSON POST on another path, MCP only if its body is JSON-RPC; `outside`: status only. */
export type Route = 'mcp' | 'probe' | 'outside';

/** What the policy reads of a request head. */
export interface RequestSignals {
  method: string;
  path: string;
  accept?: string | undefined;
  contentType?: string | undefined;
  contentEncoding?: string | undefined;
  sessionId?: string | undefined;
  protocolVersion?: string | undefined;
}

/** `/mcp/` → `/mcp`, `` → `/`: a trailing slash names the same endpoint to every server we know. */
export function normalizePath(path: string): string {
  if (path === '') return '/';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A JSON body by its Content-Type (`application/json`, `…+json`). */
export function isJsonType(contentType: string | undefined): boolean {
  const t = mediaType(contentType);
  return t === 'application/json' || t.endsWith('+json');
}

export class EndpointPolicy {
  readonly path: string;

  constructor(configuredPath: string) {
    this.path = normalizePath(configuredPath);
  }

  /** The path the user gave (trailing slash ignored). */
  isConfigured(path: string): boolean {
    return normalizePath(path) === this.path;
  }

  route(r: RequestSignals): Route {
    if (r.path.startsWith('/.well-known/')) return 'outside';
    if (this.isConfigured(r.path) || r.sessionId !== undefined || r.protocolVersion !== undefined) return 'mcp';
    if ((r.accept ?? '').toLowerCase().includes('text/event-stream')) return 'mcp';
    if (r.method === 'POST' && isJsonType(r.contentType)) {
      const enc = (r.contentEncoding ?? '').trim().toLowerCase();
      return enc === '' || enc === 'identity' ? 'probe' : 'outside';
    }
    return 'outside';
  }

  /** The startup line on stderr: which paths are treated as MCP. */
  describe(): string {
    const given = this.path === '/' ? 'the URL names no path, so' : `MCP endpoint ${this.path};`;
    return (
      `${given} JSON-RPC and SSE are decoded on any path whose requests name an MCP session or protocol version, ` +
      'accept an SSE answer, or post JSON-RPC; /.well-known/ and other exchanges are logged by status only'
    );
  }
}

function isJsonRpcValue(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return 'jsonrpc' in o || typeof o['method'] === 'string';
}

/**
 * Whether a body off the given path is JSON-RPC (an object or a non-empty array of objects with
 * `jsonrpc` or a `method`), so that an OAuth registration or an error document is never logged as a
 * message. A body past the log's size limit is judged by its head.
 */
export function isJsonRpcBody(line: Line): boolean {
  if (line.data !== undefined) {
    let v: unknown;
    try {
      v = JSON.parse(line.data.toString('utf8'));
    } catch {
      return false;
    }
    return Array.isArray(v) ? v.length > 0 && v.every(isJsonRpcValue) : isJsonRpcValue(v);
  }
  const head = (line.head ?? Buffer.alloc(0)).toString('utf8', 0, 4096);
  return /^\s*\[?\s*\{/.test(head) && /"(?:jsonrpc|method)"\s*:/.test(head);
}
