/**
 * The live UI's HTTP handler, called in-process with web Requests: who may ask (Host, Origin, token,
 * cookie), what it answers (read-only, only the logs it was given), and bodies redacted exactly like
 * export unless revealed. A real LogWatch follows the planted-secrets fixture log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { lensStage } from '../../src/lens/lenses.js';
import { makeUiHandler } from '../../src/ui/handler.js';
import { LogWatch } from '../../src/ui/log-watch.js';
import type { LiveEvent } from '../../src/ui/live-row.js';
import type { SessionRow } from '../../src/session-view/row.js';
import { RecordRedactor } from '../../src/transcript/redact.js';
import type { LogRecord } from '../../src/log/record.js';
import { SECRETS_LOG, plantedRedactOptions, survivingSecrets } from '../fixtures/planted-secrets.js';

const PORT = 43210;
const TOKEN = 'test-token-0123456789';
const BASE = `http://127.0.0.1:${PORT}`;
const COOKIE = `mcp-tap-ui-${PORT}=${TOKEN}`;

const ac = new AbortController();
let handle: (req: Request) => Promise<Response>;
const records = readFileSync(SECRETS_LOG, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogRecord);
// as the UI reads them: with the lenses' notes (the security lens notes the planted credentials)
const stage = lensStage();
const viewed = records.map((r) => stage.apply(structuredClone(r)));
const session = records[0]!.session;

beforeAll(async () => {
  const watch = new LogWatch({ files: [SECRETS_LOG], redact: plantedRedactOptions, signal: ac.signal, pollMs: 50 });
  await watch.start();
  handle = makeUiHandler({ token: TOKEN, port: PORT, watch, page: { html: '<p>page</p>', csp: "default-src 'none'" }, redact: plantedRedactOptions });
});
afterAll(() => ac.abort());

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Response> {
  return handle(new Request(`${BASE}${path}`, { method, headers: { host: `127.0.0.1:${PORT}`, ...headers } }));
}

describe('ui handler: who may ask', () => {
  it('refuses a request without the token (403)', async () => {
    expect((await get('/')).status).toBe(403);
    expect((await get('/api/sessions')).status).toBe(403);
    expect((await get('/api/sessions', { cookie: `mcp-tap-ui-${PORT}=wrong-token-0123456789` })).status).toBe(403);
    // the cookie of another port's UI is not this one's
    expect((await get('/api/sessions', { cookie: `mcp-tap-ui-1234=${TOKEN}` })).status).toBe(403);
  });

  it('refuses a forged Host even with the token (DNS rebinding)', async () => {
    for (const host of ['evil.example:43210', `127.0.0.1.evil.example:${PORT}`, '127.0.0.1:1', 'localhost']) {
      expect((await get('/api/sessions', { host, cookie: COOKIE })).status, host).toBe(403);
    }
    expect((await get('/api/sessions', { host: `localhost:${PORT}`, cookie: COOKIE })).status).toBe(200);
  });

  it('refuses another Origin and cross-site requests, and sends no CORS header', async () => {
    expect((await get('/api/sessions', { cookie: COOKIE, origin: 'http://evil.example' })).status).toBe(403);
    expect((await get('/api/sessions', { cookie: COOKIE, origin: `https://127.0.0.1:${PORT}` })).status).toBe(403);
    expect((await get('/api/sessions', { cookie: COOKIE, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const ok = await get('/api/sessions', { cookie: COOKIE, origin: BASE, 'sec-fetch-site': 'same-origin' });
    expect(ok.status).toBe(200);
    expect([...ok.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
  });

  it('moves the token from the URL into an HttpOnly, SameSite=Strict cookie for this port', async () => {
    const res = await get(`/?token=${TOKEN}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.get('set-cookie')).toBe(`${COOKIE}; Path=/; HttpOnly; SameSite=Strict`);
    const page = await get('/', { cookie: COOKIE });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(await page.text()).toBe('<p>page</p>');
  });

  it('is read-only and serves only the logs it was given', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) expect((await get('/api/sessions', { cookie: COOKIE }, method)).status, method).toBe(405);
    expect((await get(`/api/rows?log=1&session=${session}`, { cookie: COOKIE })).status).toBe(404);
    expect((await get(`/api/rows?log=../../etc/passwd&session=${session}`, { cookie: COOKIE })).status).toBe(404);
    expect((await get('/etc/passwd', { cookie: COOKIE })).status).toBe(404);
  });
});

describe('ui handler: what it answers', () => {
  it('lists the session with its counts', async () => {
    const body = (await (await get('/api/sessions', { cookie: COOKIE })).json()) as { logs: string[]; cards: { session: string; records: number; requests: number }[] };
    expect(body.logs).toEqual(['secrets.jsonl']);
    expect(body.cards.map((c) => [c.session, c.records])).toEqual([[session, records.length]]);
    expect(body.cards[0]!.requests).toBe(records.filter((r) => r.kind === 'request').length + records.filter((r) => r.kind === 'batch').flatMap((r) => r.items ?? []).filter((i) => i.kind === 'request').length);
  });

  it('sends every row of the session, none holding a planted secret', async () => {
    const text = await (await get(`/api/rows?log=0&session=${session}`, { cookie: COOKIE })).text();
    const rows = text.trim().split('\n').map((l) => JSON.parse(l) as SessionRow);
    expect(rows.map((r) => r.s)).toEqual(records.map((r) => r.seq));
    expect(survivingSecrets(text)).toEqual([]);
  });

  it('answers a body redacted exactly like export, and as logged when revealed', async () => {
    const redactor = new RecordRedactor(plantedRedactOptions);
    const expected = viewed.map((r) => redactor.next(r));
    for (let i = 0; i < records.length; i++) {
      const seq = records[i]!.seq;
      const red = (await (await get(`/api/body?log=0&session=${session}&seq=${seq}`, { cookie: COOKIE })).json()) as { redacted: boolean; record: unknown };
      expect(red.redacted).toBe(true);
      expect(red.record, `#${seq}`).toEqual(expected[i]);
      const raw = (await (await get(`/api/body?log=0&session=${session}&seq=${seq}&reveal=1`, { cookie: COOKIE })).json()) as { redacted: boolean; record: unknown };
      expect(raw).toEqual({ redacted: false, record: viewed[i] });
    }
    expect((await get(`/api/body?log=0&session=${session}&seq=99999`, { cookie: COOKIE })).status).toBe(404);
  });

  it('streams the snapshot first on the event stream', async () => {
    const res = await get('/api/events', { cookie: COOKIE });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const first = JSON.parse(text.slice('data: '.length, text.indexOf('\n\n'))) as LiveEvent;
    expect(first.type).toBe('hello');
    expect(first.type === 'hello' && first.cards.map((c) => c.session)).toEqual([session]);
  });
});
