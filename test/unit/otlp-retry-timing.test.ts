/**
 * The live exporter's waits, on fake timers (issue 27): between retries of one batch the wait doubles
 * from the base (capped at 30 s) with ±25 % jitter, a receiver's Retry-After replaces the backoff, and
 * the network edge reads Retry-After in seconds and as an HTTP date. The session root span is ERROR
 * when the server exited non-zero, in what the live tap sends.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanExporter } from '../../src/otlp/exporter.js';
import { originFor } from '../../src/otlp/origin.js';
import { httpPoster, type PostResult } from '../../src/otlp/http-post.js';
import { OtlpTap } from '../../src/otlp/otlp-tap.js';
import type { Span } from '../../src/otlp/spans.js';
import type { LogRecord } from '../../src/log/record.js';

const span = (i: number): Span => ({
  traceId: 'a'.repeat(32),
  spanId: i.toString(16).padStart(16, '0'),
  name: `s${i}`,
  kind: 'client',
  start: i,
  end: i + 1,
  attributes: {},
  events: [],
  links: [],
  status: { code: 'unset' },
});

describe('SpanExporter waits (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** Runs one batch through `answers`; resolves with the wait before each retry. */
  async function waits(answers: PostResult[], opts: { maxAttempts: number; backoffMs?: number }, random = 0.5): Promise<{ gaps: number[]; exporter: SpanExporter }> {
    vi.spyOn(Math, 'random').mockReturnValue(random);
    const at: number[] = [];
    const exporter = new SpanExporter({
      post: () => {
        at.push(Date.now());
        return Promise.resolve(answers.shift() ?? { status: 200 });
      },
      protocol: 'http/json',
      origin: originFor('t'),
      url: 'http://127.0.0.1:1/v1/traces',
      warn: () => {},
      delayMs: 10,
      ...opts,
    });
    exporter.add([span(1)]);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    return { gaps: at.slice(1).map((t, i) => t - at[i]!), exporter };
  }

  it('doubles the wait between retries, from the base to the 30 s cap', async () => {
    const { gaps, exporter } = await waits(Array.from({ length: 8 }, () => ({ status: 503 })), { maxAttempts: 9, backoffMs: 1000 });
    expect(gaps).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(exporter.delivered).toBe(1);
  });

  it('the default base is 1 s and a batch gets 5 attempts, then it is counted lost', async () => {
    const { gaps, exporter } = await waits(Array.from({ length: 9 }, () => ({ status: 0, error: 'ECONNREFUSED' })), { maxAttempts: 5 });
    expect(gaps).toEqual([1000, 2000, 4000, 8000]);
    expect(exporter.delivered).toBe(0);
    expect(exporter.takeLoss()).toEqual({ lost: 1, reason: 'export-failed' });
  });

  it('jitters each wait within ±25 % of the backoff', async () => {
    expect((await waits([{ status: 503 }, { status: 503 }], { maxAttempts: 5, backoffMs: 1000 }, 0)).gaps).toEqual([750, 1500]);
    expect((await waits([{ status: 503 }, { status: 503 }], { maxAttempts: 5, backoffMs: 1000 }, 0.9)).gaps).toEqual([1200, 2400]);
  });

  it('honours Retry-After instead of the backoff, which keeps doubling beneath it', async () => {
    const { gaps } = await waits([{ status: 429, retryAfterMs: 7000 }, { status: 503 }, { status: 429, retryAfterMs: 500 }, { status: 503 }], { maxAttempts: 9, backoffMs: 1000 });
    expect(gaps).toEqual([7000, 2000, 500, 8000]);
  });

  it('waits at most 30 s whatever Retry-After asks', async () => {
    const { gaps } = await waits([{ status: 503, retryAfterMs: 3_600_000 }], { maxAttempts: 3, backoffMs: 1000 });
    expect(gaps).toEqual([30000]);
  });
});

describe('httpPoster: Retry-After', () => {
  it('reads seconds and an HTTP date; no header, no value', async () => {
    const answers = [
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 503, headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() } },
      { status: 503, headers: {} },
      { status: 503, headers: { 'retry-after': 'soon' } },
      { status: 200, headers: {} },
    ];
    const server = createServer((req, res) => {
      req.resume();
      const a = answers.shift()!;
      res.writeHead(a.status, a.headers).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const post = httpPoster(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, {}, 5000);
      const got: PostResult[] = [];
      for (let i = 0; i < 5; i++) got.push(await post(Buffer.from('{}'), 'application/json'));
      expect(got[0]).toEqual({ status: 429, retryAfterMs: 3000 });
      expect(got[1]!.status).toBe(503);
      expect(got[1]!.retryAfterMs).toBeGreaterThan(55_000);
      expect(got[1]!.retryAfterMs).toBeLessThanOrEqual(60_000);
      expect(got.slice(2)).toEqual([{ status: 503, retryAfterMs: undefined }, { status: 503, retryAfterMs: undefined }, { status: 200, retryAfterMs: undefined }]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('live OTLP: the session root', () => {
  /** Records of a session whose server exits with `code`, through the live tap; the root as sent. */
  async function rootOf(code: number | null, signal: string | null = null): Promise<{ name: string; status: { code?: number; message?: string }; attributes: { key: string; value: Record<string, unknown> }[] }> {
    const bodies: string[] = [];
    const tap = new OtlpTap({
      config: { url: 'http://127.0.0.1:1/v1/traces', protocol: 'http/json', headers: {}, timeoutMs: 1000, serviceName: 'mcp-tap', resource: {} },
      warn: () => {},
      post: (body) => {
        bodies.push(body.toString('utf8'));
        return Promise.resolve({ status: 200 });
      },
    });
    let seq = 0;
    const rec = (f: Record<string, unknown>) => tap.record({ record: { v: 1, time: 1000 + ++seq, session: 'sess-1', seq, ...f } as LogRecord });
    rec({ from: 'proxy', kind: 'event', event: 'start', name: 'crashy', command: 'node', args: ['x.js'] });
    rec({ from: 'client', kind: 'request', id: 1, method: 'tools/list', msg: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    rec({ from: 'server', kind: 'response', id: 1, method: 'tools/list', reqSeq: 2, msg: { jsonrpc: '2.0', id: 1, result: { tools: [] } } });
    rec({ from: 'proxy', kind: 'event', event: 'exit', code, signal });
    rec({ from: 'proxy', kind: 'event', event: 'end', pendingCount: 0, exitCode: code, exitSignal: signal });
    await tap.flush(1000);
    await tap.close(1000);
    const spans = bodies.flatMap((b) => (JSON.parse(b) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] }).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    const roots = spans.filter((s) => (s as { parentSpanId?: string }).parentSpanId === undefined || (s as { parentSpanId?: string }).parentSpanId === '');
    expect(roots).toHaveLength(1);
    return roots[0] as never;
  }
  const attr = (root: Awaited<ReturnType<typeof rootOf>>, key: string) => root.attributes.find((a) => a.key === key)?.value;

  for (const code of [1, 3, 255]) {
    it(`is ERROR with the exit code as error.type when the server exits ${code}`, async () => {
      const root = await rootOf(code);
      expect(root.name).toBe('mcp-tap crashy');
      expect(root.status).toEqual({ code: 2, message: `the server exited with code ${code}` });
      expect(attr(root, 'error.type')).toEqual({ stringValue: String(code) });
      expect(attr(root, 'process.exit.code')).toEqual({ intValue: String(code) });
    });
  }

  it('is UNSET, with no error.type, when the server exits 0', async () => {
    const root = await rootOf(0);
    expect(root.status.code ?? 0).toBe(0);
    expect(attr(root, 'error.type')).toBeUndefined();
  });
});
