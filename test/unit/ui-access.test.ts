/**
 * Who may reach the live UI, over real HTTP in process (issue 27): the token must match whole (empty, a
 * prefix, or the right length with one byte changed: 403, in the URL and in the cookie alike); only
 * same-origin and user-typed (`none`) fetches pass Sec-Fetch-Site; the page and the API carry the exact
 * CSP (scripts and styles by the hash of what is served, connections to this origin only); the server
 * listens on 127.0.0.1 only, so a non-loopback address of this machine refuses the connection; a request
 * that names no Host (HTTP/1.0) is refused like a foreign one; a page that goes away stops its event
 * stream (the watch loses its listener).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Server } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { createHash } from 'node:crypto';
import { makeUiHandler, type WatchView } from '../../src/ui/handler.js';
import { livePage } from '../../src/ui/page-html.js';
import { serveLoopback } from '../../src/ui/serve.js';

const TOKEN = 'Zm9vYmFyYmF6cXV4LXRva2VuLTAxMjM0NTY3'; // 36 characters, like runUi's base64url tokens
const SCRIPT = 'document.body.dataset.ok = "1";';
const watch: WatchView = { logs: [], snapshot: () => ({ type: 'hello', cards: [] }), problemList: () => [], on: () => () => {} };

let server: Server;
let port: number;
beforeAll(async () => {
  ({ server, port } = await serveLoopback(0, (p) => makeUiHandler({ token: TOKEN, port: p, watch, page: livePage(SCRIPT, '0.0.0-test') })));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const cookie = (value: string) => ({ cookie: `mcp-tap-ui-${port}=${value}` });
/** The token with the byte at `i` changed (same length). */
const oneOff = (i: number) => TOKEN.slice(0, i) + (TOKEN[i] === 'A' ? 'B' : 'A') + TOKEN.slice(i + 1);

describe('live UI: the token', () => {
  it('lets the exact token in, by URL (then cookie) and by cookie', async () => {
    const first = await get(`/?token=${TOKEN}`);
    expect(first.status).toBe(303);
    expect(first.headers['set-cookie']).toEqual([`mcp-tap-ui-${port}=${TOKEN}; Path=/; HttpOnly; SameSite=Strict`]);
    expect((await get('/', cookie(TOKEN))).status).toBe(200);
    expect((await get('/api/sessions', cookie(TOKEN))).status).toBe(200);
  });

  const wrong: Record<string, string> = {
    empty: '',
    'a prefix': TOKEN.slice(0, -1),
    'a one-character prefix': TOKEN.slice(0, 1),
    'the token and more': `${TOKEN}x`,
    'the first byte changed': oneOff(0),
    'a middle byte changed': oneOff(17),
    'the last byte changed': oneOff(TOKEN.length - 1),
    'another case': TOKEN.toLowerCase(),
  };
  for (const [name, value] of Object.entries(wrong)) {
    it(`refuses ${name} with 403, in the URL and in the cookie`, async () => {
      for (const path of ['/', '/api/sessions', '/api/events']) {
        const byQuery = await get(`${path}?token=${encodeURIComponent(value)}`);
        expect(byQuery.status, `${path} ?token=`).toBe(403);
        expect(byQuery.headers['set-cookie']).toBeUndefined();
        expect((await get(path, cookie(value))).status, `${path} cookie`).toBe(403);
      }
    });
  }

  it('says why in one line and never repeats the token', async () => {
    const res = await get(`/?token=${TOKEN.slice(0, -1)}`);
    expect(res.body).toBe('forbidden: no valid token (open the URL mcp-tap ui printed)\n');
  });
});

describe('live UI: the Host header', () => {
  /** One raw request over a socket: the status line of the answer. */
  function raw(lines: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port }, () => s.end(`${lines.join('\r\n')}\r\n\r\n`));
      let got = '';
      s.on('data', (c: Buffer) => (got += c.toString('latin1')));
      s.on('end', () => resolve(got.split('\r\n')[0]!));
      s.on('error', reject);
    });
  }

  it('refuses an HTTP/1.0 request without Host even with the token, and lets the same with Host in', async () => {
    expect(await raw(['GET /api/sessions HTTP/1.0', `Cookie: mcp-tap-ui-${port}=${TOKEN}`])).toBe('HTTP/1.1 403 Forbidden');
    expect(await raw([`GET /api/sessions?token=${TOKEN} HTTP/1.0`])).toBe('HTTP/1.1 403 Forbidden');
    expect(await raw(['GET /api/sessions HTTP/1.0', `Host: 127.0.0.1:${port}`, `Cookie: mcp-tap-ui-${port}=${TOKEN}`])).toBe('HTTP/1.1 200 OK');
  });
});

describe('live UI: Sec-Fetch-Site', () => {
  for (const site of ['same-site', 'cross-site']) {
    it(`refuses ${site} requests even with the token`, async () => {
      for (const path of ['/', '/api/sessions', '/api/events']) {
        const res = await get(path, { ...cookie(TOKEN), 'sec-fetch-site': site });
        expect(res.status, path).toBe(403);
        expect(res.body).toBe('forbidden: cross-site request (open the URL mcp-tap ui printed)\n');
      }
      expect((await get(`/?token=${TOKEN}`, { 'sec-fetch-site': site })).status).toBe(403);
    });
  }
  for (const site of ['same-origin', 'none']) {
    it(`lets ${site} requests in`, async () => {
      expect((await get('/api/sessions', { ...cookie(TOKEN), 'sec-fetch-site': site })).status).toBe(200);
    });
  }
});

describe('live UI: Content-Security-Policy', () => {
  const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

  it('the page allows exactly its served inline script and style, and connections to itself only', async () => {
    const page = await get('/', cookie(TOKEN));
    expect(page.status).toBe(200);
    const script = /<script>([\s\S]*)<\/script>/.exec(page.body)![1]!;
    const style = /<style>([\s\S]*)<\/style>/.exec(page.body)![1]!;
    expect(script).toBe(SCRIPT);
    const csp = page.headers['content-security-policy'];
    expect(csp).toBe(
      `default-src 'none'; script-src ${sha(script)}; style-src ${sha(style)}; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(csp).not.toContain('*');
    expect(csp).not.toContain('unsafe');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('every API answer, refusals included, allows nothing at all', async () => {
    for (const [path, headers] of [
      ['/api/sessions', cookie(TOKEN)],
      ['/api/events', cookie(TOKEN)],
      ['/api/rows?log=0&session=x', cookie(TOKEN)],
      ['/api/sessions', {}],
      [`/?token=${TOKEN}`, {}],
    ] as const) {
      const res = await new Promise<Answer>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (r) => {
          resolve({ status: r.statusCode ?? 0, headers: r.headers, body: '' });
          r.destroy();
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.headers['content-security-policy'], path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(Object.keys(res.headers).filter((k) => k.startsWith('access-control-')), path).toEqual([]);
    }
  });
});

describe('live UI: a page that goes away', () => {
  it('stops its event stream: the watch loses the listener the stream added', async () => {
    let listeners = 0;
    const counting: WatchView = {
      logs: [],
      snapshot: () => ({ type: 'hello', cards: [] }),
      problemList: () => [],
      on: () => {
        listeners++;
        return () => void listeners--;
      },
    };
    const ui = await serveLoopback(0, (p) => makeUiHandler({ token: TOKEN, port: p, watch: counting, page: livePage(SCRIPT, '0.0.0-test') }));
    try {
      const first = await new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: ui.port, path: '/api/events', headers: { host: `127.0.0.1:${ui.port}`, cookie: `mcp-tap-ui-${ui.port}=${TOKEN}` } }, (res) => {
          res.once('data', (c: Buffer) => {
            resolve(c.toString('utf8'));
            req.destroy();
          });
        });
        req.on('error', () => {});
        req.on('close', () => resolve(''));
        req.end();
        setTimeout(() => reject(new Error('no event')), 5000).unref();
      });
      expect(first).toMatch(/^data: \{"type":"hello"/);
      const deadline = Date.now() + 5000;
      while (listeners !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(listeners).toBe(0);
    } finally {
      ui.server.closeAllConnections();
      await new Promise((r) => ui.server.close(r));
    }
  });
});

describe('live UI: loopback only', () => {
  /** This machine's addresses that are not loopback (IPv4 and IPv6). */
  const outside = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal && !a.address.startsWith('fe80'))
    .map((a) => a!.address);
  // Linux routes all of 127/8 to the loopback interface: a server bound to 0.0.0.0 answers 127.0.0.2 too
  if (process.platform === 'linux') outside.push('127.0.0.2');

  it('refuses connections to every other address of this machine', async () => {
    expect(outside.length).toBeGreaterThan(0);
    for (const address of outside) {
      const outcome = await new Promise<string>((resolve) => {
        const s = connect({ host: address, port });
        s.once('connect', () => {
          s.destroy();
          resolve('connected');
        });
        s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
      });
      expect(outcome, address).toBe('ECONNREFUSED');
    }
  });
});
