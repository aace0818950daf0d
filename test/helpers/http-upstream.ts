/**
 * Real MCP servers over HTTP for the HTTP-mode tests, built with the official SDK in the test process:
 * Streamable HTTP (sessions, SSE responses, resumable GET stream via InMemoryEventStore) or legacy
 * HTTP+SSE, optionally behind a bearer token. Every request body received and every response body byte
 * written is recorded, so tests can compare what each side of mcp-tap saw.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';

export interface Exchange {
  method: string;
  path: string;
  requestBody: Buffer;
  responseBody: Buffer[];
}

export interface Upstream {
  url: string;
  server: Server;
  exchanges: Exchange[];
  close: () => Promise<void>;
}

/**
 * Events kept for resumption. (The SDK's example InMemoryEventStore takes the stream id from the text
 * before the first `_`, which is empty for the standalone GET stream `_GET_stream`, so it never replays it.)
 */
class EventLog implements EventStore {
  private readonly events: Array<{ id: string; streamId: string; message: Parameters<EventStore['storeEvent']>[1] }> = [];
  async storeEvent(streamId: string, message: Parameters<EventStore['storeEvent']>[1]): Promise<string> {
    const id = `ev-${this.events.length + 1}`;
    this.events.push({ id, streamId, message });
    return id;
  }
  async replayEventsAfter(lastEventId: string, { send }: Parameters<EventStore['replayEventsAfter']>[1]): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at < 0) return '';
    const streamId = this.events[at]!.streamId;
    for (const e of this.events.slice(at + 1)) if (e.streamId === streamId) await send(e.id, e.message);
    return streamId;
  }
}

/** The tools every test server offers. */
function makeMcp(): McpServer {
  const mcp = new McpServer({ name: 'http-test-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  mcp.registerTool('echo', { description: 'echo', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  mcp.registerTool('slow', { description: 'progress', inputSchema: { steps: z.number() } }, async ({ steps }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
    }
    return { content: [{ type: 'text', text: `done ${steps}` }] };
  });
  mcp.registerTool('ask', { description: 'elicits a name' }, async (extra) => {
    const answer = await extra.sendRequest(
      { method: 'elicitation/create', params: { message: 'your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } },
      ElicitResultSchema,
    );
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.['name'])}` }] };
  });
  mcp.registerTool('notify', { description: 'a notification on the GET stream' }, async () => {
    await mcp.server.sendLoggingMessage({ level: 'info', data: 'on the GET stream' });
    return { content: [{ type: 'text', text: 'sent' }] };
  });
  mcp.registerTool('whoami', { description: 'echoes the credentials and session id it was sent (a leaky server)' }, async (extra) => {
    const h = extra.requestInfo?.headers ?? {};
    return { content: [{ type: 'text', text: `authorization=${String(h['authorization'])} session=${String(extra.sessionId)} cookie=${String(h['cookie'])}` }] };
  });
  mcp.registerTool('drop-get', { description: 'closes the GET stream, then notifies (the client gets it by resuming)' }, async (extra) => {
    extra.closeStandaloneSSEStream?.();
    await mcp.server.sendLoggingMessage({ level: 'info', data: 'after the drop' });
    return { content: [{ type: 'text', text: 'dropped' }] };
  });
  return mcp;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Records what is written to `res` (the body bytes, as sent before any transfer coding). */
function record(res: ServerResponse, into: Buffer[]): void {
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
  const keep = (c: unknown) => {
    if (typeof c === 'string') into.push(Buffer.from(c));
    else if (c instanceof Uint8Array) into.push(Buffer.from(c));
  };
  res.write = ((c: unknown, ...rest: unknown[]) => {
    keep(c);
    return write(c, ...rest);
  }) as typeof res.write;
  res.end = ((c?: unknown, ...rest: unknown[]) => {
    if (typeof c !== 'function') keep(c);
    return end(c, ...rest);
  }) as typeof res.end;
}

export interface UpstreamOptions {
  mode: 'streamable' | 'sse';
  /** Requests without `Authorization: Bearer <token>` get 401 with a WWW-Authenticate challenge. */
  token?: string;
  /**
   * A whole OAuth authorization server beside the MCP endpoint (RFC 9728 metadata, RFC 8414 metadata,
   * registration, authorization, token), which issues `token`. Its documents name `publicOrigin()` —
   * the tap's origin, set once it listens — so a host's sign-in goes through the tap as it would to a
   * server hosting its own authorization server.
   */
  oauth?: { publicOrigin: () => string; code: string; clientSecret: string; refreshToken: string };
}

/** Starts a server on 127.0.0.1 (port 0); the MCP endpoint is /mcp (streamable) or /sse (legacy). */
export async function startUpstream(opts: UpstreamOptions): Promise<Upstream> {
  const exchanges: Exchange[] = [];
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const legacy = new Map<string, SSEServerTransport>();
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = await readBody(req);
      const ex: Exchange = { method: req.method ?? '', path, requestBody: body, responseBody: [] };
      exchanges.push(ex);
      record(res, ex.responseBody);
      const oauth = opts.oauth;
      if (oauth !== undefined) {
        const pub = oauth.publicOrigin();
        const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
        if (path.startsWith('/.well-known/oauth-protected-resource')) return json(200, { resource: `${pub}/mcp`, authorization_servers: [pub], scopes_supported: ['mcp'] });
        if (path === '/.well-known/oauth-authorization-server') {
          return json(200, {
            issuer: pub,
            authorization_endpoint: `${pub}/authorize`,
            token_endpoint: `${pub}/token`,
            registration_endpoint: `${pub}/register`,
            response_types_supported: ['code'],
            grant_types_supported: ['authorization_code', 'refresh_token'],
            code_challenge_methods_supported: ['S256'],
            token_endpoint_auth_methods_supported: ['client_secret_post'],
          });
        }
        if (path === '/register' && req.method === 'POST') {
          const meta = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
          return json(201, { ...meta, client_id: 'oauth-test-client', client_secret: oauth.clientSecret, client_id_issued_at: 1 });
        }
        if (path === '/authorize' && req.method === 'GET') {
          const q = new URL(req.url ?? '/', pub).searchParams;
          res.writeHead(302, { location: `${q.get('redirect_uri')}?code=${oauth.code}&state=${q.get('state') ?? ''}` }).end();
          return;
        }
        if (path === '/token' && req.method === 'POST') {
          const form = new URLSearchParams(body.toString('utf8'));
          if (form.get('code') !== oauth.code && form.get('refresh_token') !== oauth.refreshToken) return json(400, { error: 'invalid_grant' });
          return json(200, { access_token: opts.token, token_type: 'Bearer', expires_in: 3600, refresh_token: oauth.refreshToken, scope: 'mcp' }, { 'set-cookie': `as_session=${oauth.code}-COOKIE; HttpOnly` });
        }
      }
      if (path === '/token' && req.method === 'POST') {
        // an OAuth token endpoint: its answer holds secrets the log must never see
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'oauth_state=SET-COOKIE-SECRET-7; HttpOnly' });
        res.end(JSON.stringify({ access_token: 'OAUTH-ACCESS-TOKEN-XYZ', refresh_token: 'OAUTH-REFRESH-TOKEN-XYZ', token_type: 'Bearer' }));
        return;
      }
      if (opts.token !== undefined && req.headers.authorization !== `Bearer ${opts.token}`) {
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const meta = `${opts.oauth?.publicOrigin() ?? origin}/.well-known/oauth-protected-resource/mcp`;
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${meta}", scope="mcp"`, 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_token' }));
        return;
      }
      const parsed = body.length > 0 ? (JSON.parse(body.toString('utf8')) as unknown) : undefined;
      if (opts.mode === 'streamable' && path === '/mcp') {
        const sid = req.headers['mcp-session-id'] as string | undefined;
        let t = sid !== undefined ? streamable.get(sid) : undefined;
        if (t === undefined && sid === undefined && req.method === 'POST') {
          const transport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            eventStore: new EventLog(),
            onsessioninitialized: (id) => void streamable.set(id, transport),
            onsessionclosed: (id) => void streamable.delete(id),
          });
          await makeMcp().connect(transport);
          t = transport;
        }
        if (t === undefined) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          return;
        }
        await t.handleRequest(req, res, parsed);
        return;
      }
      if (opts.mode === 'sse' && req.method === 'GET' && path === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        legacy.set(transport.sessionId, transport);
        res.on('close', () => legacy.delete(transport.sessionId));
        await makeMcp().connect(transport);
        return;
      }
      if (opts.mode === 'sse' && req.method === 'POST' && path === '/messages') {
        const id = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '';
        const t = legacy.get(id);
        if (t === undefined) {
          res.writeHead(404).end('no session');
          return;
        }
        await t.handlePostMessage(req, res, parsed);
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${opts.mode === 'streamable' ? '/mcp' : '/sse'}`,
    server,
    exchanges,
    close: async () => {
      for (const t of streamable.values()) await t.close().catch(() => {});
      for (const t of legacy.values()) await t.close().catch(() => {});
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
