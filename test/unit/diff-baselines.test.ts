/**
 * Baselines and diff: every kind of change between the fixture logs check-diff-a and check-diff-b, each
 * kind alone on in-memory baselines, thresholds, what cannot be compared, and baseline files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBaseline, type Baseline } from '../../src/check/baseline.js';
import { diffBaselines } from '../../src/check/diff.js';
import { toolText } from '../../src/lens/context/model-text.js';
import { loadTokenizer } from '../../src/lens/context/tokenizer.js';
import { loadBaseline, parseBaseline, splitTarget } from '../../src/check/load-baseline.js';
import { readFacts } from '../../src/check/read-facts.js';
import { renderDiffJson, renderDiffText } from '../../src/check/render-diff.js';
import { ROOT } from '../helpers/paths.js';

const LOGS = join(ROOT, 'test', 'fixtures', 'logs');
const A = join(LOGS, 'check-diff-a.jsonl');
const B = join(LOGS, 'check-diff-b.jsonl');

const empty = (): Baseline => ({
  mcpTapBaseline: 1,
  createdBy: 'test',
  source: { session: 's' },
  server: { name: 'x', version: '1' },
  protocolVersion: '2025-06-18',
  capabilities: { tools: {} },
  tools: {},
  resources: {},
  resourceTemplates: null,
  prompts: {},
  latency: { methods: {}, tools: {} },
  findings: {},
});
const kinds = (a: Baseline, b: Baseline, opts = {}) => diffBaselines(a, b, opts).differences.map((d) => `${d.area} ${d.kind}${d.name !== undefined ? ` ${d.name}` : ''}`);

describe('buildBaseline', () => {
  it('keeps listings, lifecycle, latency medians per method and tool, and finding codes', async () => {
    const b = buildBaseline(await readFacts(B));
    expect(b.mcpTapBaseline).toBe(1);
    expect(b.source).toEqual({ session: 'diff-bbbb', start: '2026-01-01T10:40:00.000Z', name: 'demo' });
    expect(b.server).toEqual({ name: 'demo-server', version: '1.1.0' });
    expect(b.protocolVersion).toBe('2025-11-25');
    expect(Object.keys(b.tools!)).toEqual(['delete-everything', 'echo', 'weather']);
    expect(Object.keys(b.resources!)).toEqual(['file:///changelog.md', 'file:///readme.md']);
    expect(b.resourceTemplates).toBeNull();
    expect(b.latency.tools).toEqual({ echo: { n: 3, median: 181 }, weather: { n: 3, median: 46 } });
    expect(b.latency.methods['tools/call']).toEqual({ n: 6, median: 47 }); // nearest rank: 3rd of 45 46 47 180 181 182
    expect(b.latency.methods['initialize']).toEqual({ n: 1, median: 40 });
    expect(b.findings).toEqual({ 'stdout-not-json': 1 });
  });
});

describe('diffBaselines', () => {
  it('finds every kind of change between the two fixture sessions', async () => {
    const a = buildBaseline(await readFacts(A));
    const b = buildBaseline(await readFacts(B));
    expect(kinds(a, b)).toEqual([
      'tools added delete-everything',
      'tools changed echo',
      'tools removed slow-report',
      'tools changed weather',
      'resources added file:///changelog.md',
      'resources removed file:///license',
      'resources changed file:///readme.md',
      'prompts changed summarize',
      'capabilities changed',
      'protocolVersion changed',
      'latency slower echo',
      'findings new stdout-not-json',
    ]);
    const d = diffBaselines(a, b).differences;
    expect(d.find((x) => x.name === 'echo' && x.area === 'tools')!.changes).toEqual([
      { path: '/annotations/readOnlyHint', before: true, after: false },
      { path: '/description', before: 'Echoes the message back', after: 'Echoes the message back, loudly' },
      { path: '/inputSchema/properties/loud', after: { type: 'boolean' } },
      { path: '/inputSchema/required', before: ['message'], after: ['loud', 'message'] },
    ]);
    expect(d.find((x) => x.name === 'weather')!.changes!.map((c) => c.path)).toEqual(['/outputSchema/properties/tempF', '/outputSchema/required']);
    expect(d.find((x) => x.area === 'capabilities')!.changes).toEqual([
      { path: '/logging', after: {} },
      { path: '/tools/listChanged', after: true },
    ]);
    expect(d.find((x) => x.area === 'protocolVersion')).toMatchObject({ before: '2025-06-18', after: '2025-11-25' });
    expect(d.find((x) => x.area === 'latency' && x.name === 'echo')).toMatchObject({ scope: 'tool', before: 21, after: 181, ratio: 8.62, deltaMs: 160 });
    expect(d.find((x) => x.area === 'findings')).toMatchObject({ name: 'stdout-not-json', after: 1 });
    // weather went 31 → 46 ms: 1.48×, +15 ms; tools/call as a whole 22 → 47 ms: 2.14× but only +25 ms
    expect(d.some((x) => x.name === 'weather' && x.area === 'latency')).toBe(false);
    expect(d.some((x) => x.name === 'tools/call')).toBe(false);
  });

  it('reports nothing between a session and itself', async () => {
    const a = buildBaseline(await readFacts(A));
    expect(diffBaselines(a, a).differences).toEqual([]);
  });

  it('needs both latency thresholds, and both are configurable', () => {
    const a = empty();
    const b = empty();
    a.latency.methods = { 'tools/list': { n: 1, median: 10 }, 'tools/call': { n: 3, median: 200 }, ping: { n: 1, median: 1 } };
    b.latency.methods = { 'tools/list': { n: 1, median: 40 }, 'tools/call': { n: 3, median: 260 }, ping: { n: 1, median: 100 } };
    // tools/list 4× but only +30 ms; tools/call +60 ms but only 1.3×; ping both
    expect(kinds(a, b)).toEqual(['latency slower ping']);
    expect(kinds(a, b, { minMs: 20 })).toEqual(['latency slower ping', 'latency slower tools/list']);
    expect(kinds(a, b, { ratio: 1.2 })).toEqual(['latency slower ping', 'latency slower tools/call']);
    a.latency.tools = { t: { n: 1, median: 0 } };
    b.latency.tools = { t: { n: 1, median: 80 } };
    expect(diffBaselines(a, b).differences.find((d) => d.name === 't')).toMatchObject({ scope: 'tool', ratio: Number.POSITIVE_INFINITY });
  });

  it('finds each kind of change alone', () => {
    const base = empty();
    base.tools = { t: { name: 't', inputSchema: { type: 'object' } } };
    base.prompts = { p: { name: 'p', arguments: [{ name: 'a' }] } };
    const variant = (f: (b: Baseline) => void) => {
      const b = structuredClone(base);
      f(b);
      return kinds(base, b);
    };
    expect(variant((b) => (b.tools!['u'] = { name: 'u' }))).toEqual(['tools added u']);
    expect(variant((b) => delete b.tools!['t'])).toEqual(['tools removed t']);
    expect(variant((b) => (b.tools!['t']!['inputSchema'] = { type: 'object', properties: { x: {} } }))).toEqual(['tools changed t']);
    expect(variant((b) => (b.tools!['t']!['outputSchema'] = { type: 'object' }))).toEqual(['tools changed t']);
    expect(variant((b) => (b.tools!['t']!['description'] = 'new'))).toEqual(['tools changed t']);
    expect(variant((b) => (b.tools!['t']!['annotations'] = { destructiveHint: true }))).toEqual(['tools changed t']);
    expect(variant((b) => (b.resources = { 'file:///a': { uri: 'file:///a', name: 'a' } }))).toEqual(['resources added file:///a']);
    expect(variant((b) => (b.prompts!['p']!['arguments'] = [{ name: 'a', required: true }]))).toEqual(['prompts changed p']);
    expect(variant((b) => (b.capabilities = { tools: {}, logging: {} }))).toEqual(['capabilities changed']);
    expect(variant((b) => (b.protocolVersion = '2025-11-25'))).toEqual(['protocolVersion changed']);
    expect(variant((b) => (b.findings = { 'unknown-id': 2 }))).toEqual(['findings new unknown-id']);
    expect(variant((b) => (b.server = { name: 'x', version: '9' }))).toEqual([]); // the server's version is not a difference
  });

  it('says what it could not compare instead of calling it removed', () => {
    const a = empty();
    const b = empty();
    b.tools = null;
    b.capabilities = null;
    b.protocolVersion = null;
    const r = diffBaselines(a, b);
    expect(r.differences).toEqual([]);
    expect(r.notCompared).toEqual(['tools: B has no tools/list answer', 'capabilities: B has no initialize answer', 'protocol version: B has none']);
  });
});

describe('baseline files and targets', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-tap-diff-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back a saved baseline, and tells it from a log by its first key', async () => {
    const saved = buildBaseline(await readFacts(A));
    const path = join(dir, 'baseline.json');
    writeFileSync(path, `${JSON.stringify(saved, null, 2)}\n`);
    const loaded = await loadBaseline(path);
    expect(loaded.kind).toBe('baseline');
    expect(loaded.baseline).toEqual(saved);
    const fromLog = await loadBaseline(A);
    expect(fromLog).toMatchObject({ kind: 'log', label: `${A} (session diff-aaaa)` });
    expect(diffBaselines(loaded.baseline, fromLog.baseline).differences).toEqual([]);
  });

  it('reads one session of a log with file#session', async () => {
    expect(await splitTarget(`${A}#diff-a`)).toEqual({ file: A, session: 'diff-a' });
    expect(await splitTarget(A)).toEqual({ file: A });
    const multi = join(LOGS, 'check-multi.jsonl');
    expect((await loadBaseline(`${multi}#multi-aaaa`)).baseline.source.session).toBe('multi-aaaa');
    const hashName = join(dir, 'a#b.jsonl');
    writeFileSync(hashName, '');
    expect(await splitTarget(hashName)).toEqual({ file: hashName });
  });

  it('rejects files that are not baselines with one clear line', async () => {
    expect(() => parseBaseline([], 'x.json')).toThrow('x.json is not a usable mcp-tap baseline: no "mcpTapBaseline" version');
    expect(() => parseBaseline({ mcpTapBaseline: 1, tools: 5 }, 'x.json')).toThrow('"tools" is not an object');
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "mcpTapBaseline": 1, ');
    await expect(loadBaseline(broken)).rejects.toThrow(/not a usable mcp-tap baseline: not JSON/);
    await expect(loadBaseline(join(dir, 'nope.json'))).rejects.toThrow(/no such log/);
  });

  it('accepts a newer baseline format with a warning, filling in what is missing', async () => {
    const path = join(dir, 'newer.json');
    writeFileSync(path, JSON.stringify({ mcpTapBaseline: 2, tools: { a: { name: 'a' } }, extra: true }));
    const warnings: string[] = [];
    const { baseline } = await loadBaseline(path, (m) => warnings.push(m));
    expect(baseline.tools).toEqual({ a: { name: 'a' } });
    expect(baseline.prompts).toBeNull();
    expect(warnings[0]).toMatch(/newer format \(2\)/);
  });
});

describe('rendering a diff', () => {
  it('groups the text by area and names both sides; JSON carries the differences', async () => {
    const a = { label: 'a.json', baseline: buildBaseline(await readFacts(A)) };
    const b = { label: 'b.log', baseline: buildBaseline(await readFacts(B)) };
    const result = diffBaselines(a.baseline, b.baseline);
    const text = renderDiffText(result, a, b);
    expect(text.split('\n').slice(0, 3)).toEqual([
      'mcp-tap diff: 12 differences',
      '  A  a.json — demo-server 1.0.0, protocol 2025-06-18',
      '  B  b.log — demo-server 1.1.0, protocol 2025-11-25',
    ]);
    expect(text).toContain('\ntools\n  + delete-everything\n  ~ echo\n      ! safety weakened: readOnlyHint true → false\n      ! safety weakened: destructive now (destructiveHint absent, which means destructive)\n      /annotations/readOnlyHint: true → false\n');
    expect(text).toContain('  - slow-report');
    expect(text).toContain('latency (median ≥ 1.5× and ≥ 50 ms slower)\n  ▲ tool echo: median 21.0 ms → 181.0 ms (8.62×, +160.0 ms)');
    expect(text).toContain('finding codes new in B\n  + stdout-not-json (1×)');
    const json = JSON.parse(renderDiffJson(result, a, b));
    expect(json).toMatchObject({ identical: false, thresholds: { ratio: 1.5, minMs: 50 }, a: { label: 'a.json', protocolVersion: '2025-06-18' } });
    expect(json.differences).toHaveLength(12);
    expect(renderDiffText(diffBaselines(a.baseline, a.baseline), a, a).split('\n')[0]).toBe('mcp-tap diff: no differences');
  });

  it('shows the tokens of each changed, added and removed tool and of the whole list, with a tokenizer', async () => {
    const tokenizer = await loadTokenizer();
    const a = buildBaseline(await readFacts(A), tokenizer);
    const b = buildBaseline(await readFacts(B), tokenizer);
    expect(a.tokens).toMatchObject({ tokenizer: 'o200k_base', total: Object.values(a.tokens!.tools).reduce((x, y) => x + y, 0) });
    const def = (base: Baseline, name: string) => tokenizer.count(toolText(base.tools![name]!));
    const d = diffBaselines(a, b, { tokenizer }).differences;
    expect(d.find((x) => x.name === 'echo')).toMatchObject({ kind: 'changed', tokens: { before: def(a, 'echo'), after: def(b, 'echo') }, weakened: ['readOnlyHint true → false', 'destructive now (destructiveHint absent, which means destructive)'] });
    expect(d.find((x) => x.name === 'delete-everything')).toMatchObject({ kind: 'added', tokens: { after: def(b, 'delete-everything') } });
    expect(d.find((x) => x.name === 'slow-report')).toMatchObject({ kind: 'removed', tokens: { before: def(a, 'slow-report') } });
    expect(d.find((x) => x.area === 'context')).toEqual({ area: 'context', kind: 'changed', name: 'tool definitions', tokens: { before: a.tokens!.total, after: b.tokens!.total } });
    const text = renderDiffText({ ...diffBaselines(a, b, { tokenizer }) }, { label: 'a', baseline: a }, { label: 'b', baseline: b });
    expect(text).toContain(`  ~ echo (tokens ${def(a, 'echo')} → ${def(b, 'echo')}, +${def(b, 'echo') - def(a, 'echo')})`);
  });
});
