/**
 * The live exporter against an injected POST: batches, retries 429/503 (honouring Retry-After) until a
 * success, gives a batch up after its attempts, drops past its queue bound, counts every span it loses
 * and warns once; add() never waits.
 */
import { describe, expect, it } from 'vitest';
import { SpanExporter } from '../../src/otlp/exporter.js';
import { originFor } from '../../src/otlp/origin.js';
import type { PostResult } from '../../src/otlp/http-post.js';
import type { Span } from '../../src/otlp/spans.js';
import { waitFor } from '../helpers/wait.js';

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

function harness(answers: Array<PostResult | 'hang'>, opts: Partial<ConstructorParameters<typeof SpanExporter>[0]> = {}) {
  const posts: { body: Buffer; type: string }[] = [];
  const warnings: string[] = [];
  const exporter = new SpanExporter({
    post: (body, type) => {
      posts.push({ body, type });
      const a = answers.shift() ?? { status: 200 };
      return a === 'hang' ? new Promise<PostResult>(() => {}) : Promise.resolve(a);
    },
    protocol: 'http/json',
    origin: originFor('t'),
    url: 'http://127.0.0.1:1/v1/traces',
    warn: (m) => warnings.push(m),
    delayMs: 1,
    backoffMs: 1,
    ...opts,
  });
  const names = (i: number) => (JSON.parse(posts[i]!.body.toString()) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] }).resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.name);
  return { exporter, posts, warnings, names };
}

describe('SpanExporter', () => {
  it('retries 503 and 429 (Retry-After) until delivered, losing nothing', async () => {
    const h = harness([{ status: 503 }, { status: 429, retryAfterMs: 1 }, { status: 200 }]);
    h.exporter.add([span(1), span(2)]);
    await waitFor(() => h.exporter.delivered === 2, 2000, 'delivery');
    expect(h.posts).toHaveLength(3);
    expect(h.names(2)).toEqual(['s1', 's2']);
    expect(h.exporter.takeLoss()).toBeNull();
    expect(h.warnings).toEqual([]);
  });

  it('gives a batch up after its attempts: counted as export-failed, one warning', async () => {
    const h = harness(Array.from({ length: 10 }, () => ({ status: 503 })), { maxAttempts: 3 });
    h.exporter.add([span(1)]);
    await waitFor(() => h.exporter.lostTotal === 1, 2000, 'loss');
    h.exporter.add([span(2)]);
    await waitFor(() => h.exporter.lostTotal === 2, 2000, 'loss');
    expect(h.posts).toHaveLength(6);
    expect(h.exporter.takeLoss()).toEqual({ lost: 2, reason: 'export-failed' });
    expect(h.exporter.takeLoss()).toBeNull();
    expect(h.warnings).toHaveLength(1);
    expect(h.warnings[0]).toContain('HTTP 503');
  });

  it('does not retry a 400: the batch is rejected', async () => {
    const h = harness([{ status: 400 }]);
    h.exporter.add([span(1), span(2), span(3)]);
    await waitFor(() => h.exporter.lostTotal === 3, 2000, 'loss');
    expect(h.posts).toHaveLength(1);
    expect(h.exporter.takeLoss()).toEqual({ lost: 3, reason: 'rejected' });
  });

  it('while a request hangs, spans past the queue bound are dropped and counted at once', () => {
    const h = harness(['hang'], { maxQueue: 4, maxBatch: 2, delayMs: 0 });
    h.exporter.add([span(1), span(2)]);
    return waitFor(() => h.posts.length === 1, 2000, 'first post').then(() => {
      const t0 = performance.now();
      h.exporter.add([1, 2, 3, 4, 5, 6].map((i) => span(i + 10)));
      expect(performance.now() - t0).toBeLessThan(50);
      expect(h.exporter.takeLoss()).toEqual({ lost: 2, reason: 'queue-full' });
      expect(h.warnings).toHaveLength(1);
    });
  });

  it('flush sends what waits within its time and counts the rest; nothing is lost twice', async () => {
    const h = harness(['hang'], { maxBatch: 2, delayMs: 0 });
    h.exporter.add([span(1), span(2), span(3)]);
    await waitFor(() => h.posts.length === 1, 2000, 'first post');
    await h.exporter.flush(50);
    // the hanging batch (2) and the waiting span (1)
    expect(h.exporter.takeLoss()).toEqual({ lost: 3, reason: 'export-failed' });
    expect(await h.exporter.close(10)).toBe(0);
  });

  it('sends protobuf with its content type', async () => {
    const h = harness([], { protocol: 'http/protobuf' });
    h.exporter.add([span(1)]);
    await waitFor(() => h.exporter.delivered === 1, 2000, 'delivery');
    expect(h.posts[0]!.type).toBe('application/x-protobuf');
  });
});
