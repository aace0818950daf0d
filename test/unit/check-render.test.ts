/**
 * The renderers: SARIF valid against the SARIF 2.1.0 schema (with rules, help and located results),
 * JUnit XML parsed back (well-formed, counts consistent, one testcase per request and per finding code),
 * and the text report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { planCheck } from '../../src/check/check-options.js';
import { renderJunit } from '../../src/check/render-junit.js';
import { artifactUri, renderSarif } from '../../src/check/render-sarif.js';
import { renderText } from '../../src/check/render-text.js';
import type { CheckReport } from '../../src/check/report.js';
import { allRules } from '../../src/check/rules.js';
import { checkLog } from '../../src/check/run-check.js';
import { xmlEscape } from '../../src/check/xml.js';
import { ROOT } from '../helpers/paths.js';

const LOGS = join(ROOT, 'test', 'fixtures', 'logs');
const report = (file: string, flags: Record<string, unknown> = {}) => checkLog(planCheck([join(LOGS, file)], { format: 'text', ...flags }), () => {});

// ---- SARIF -------------------------------------------------------------------------------------------

function sarifValidator() {
  const schema = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
  // a draft-04 header and draft-04 `id`; the schema's keywords validate the same under draft-07
  delete schema['$schema'];
  delete schema['id'];
  const ajv = new Ajv.default({ strict: false, allErrors: true, validateSchema: false, unicodeRegExp: false });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

describe('SARIF', () => {
  let validate: ReturnType<typeof sarifValidator>;
  let problems: CheckReport;
  beforeAll(async () => {
    validate = sarifValidator();
    problems = await report('check-problems.jsonl', { expectTool: ['missing-tool'] });
  });

  it('is valid SARIF 2.1.0 for a failing and a passing session', async () => {
    for (const r of [problems, await report('check-clean.jsonl')]) {
      const sarif = JSON.parse(renderSarif(r, { cwd: ROOT }));
      const ok = validate(sarif);
      expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 3))).toEqual([]);
      expect(ok).toBe(true);
      expect(sarif.version).toBe('2.1.0');
    }
  });

  it('rejects what is not SARIF (the validator is not vacuous)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
    const run = (result: unknown) => ({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [result] }] });
    expect(validate(run({ message: { text: 'm' } }))).toBe(true);
    expect(validate(run({ message: { text: 'm' }, level: 'bogus' }))).toBe(false);
    expect(validate(run({ message: { text: 'm' }, locations: [{ physicalLocation: { region: { startLine: 0 } } }] }))).toBe(false);
  });

  it('has one rule per rule id, with help, a help link for spec rules and a level from --fail-on', () => {
    const run = JSON.parse(renderSarif(problems, { cwd: ROOT })).runs[0];
    const rules = run.tool.driver.rules as Array<Record<string, any>>;
    expect(rules.map((r) => r.id)).toEqual(allRules().map((r) => r.id));
    const noise = rules.find((r) => r.id === 'stdout-not-json')!;
    expect(noise).toMatchObject({ name: 'StdoutNotJson', helpUri: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio', defaultConfiguration: { level: 'error' } });
    expect(noise.help.text).toMatch(/stderr/);
    expect(noise.shortDescription.text.length).toBeGreaterThan(10);
    expect(rules.find((r) => r.id === 'jsonrpc-error')!.defaultConfiguration.level).toBe('warning');
    expect(rules.find((r) => r.id === 'truncated')!.defaultConfiguration.level).toBe('note');
  });

  it('locates each result at its log record: file, line, and session/seq', () => {
    const run = JSON.parse(renderSarif(problems, { cwd: ROOT })).runs[0];
    const results = run.results as Array<Record<string, any>>;
    expect(results).toHaveLength(problems.problems.length);
    const noise = results.find((r) => r.ruleId === 'stdout-not-json')!;
    expect(noise.level).toBe('error');
    expect(noise.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'test/fixtures/logs/check-problems.jsonl', uriBaseId: '%SRCROOT%', index: 0 }, region: { startLine: 3 } });
    expect(noise.locations[0].logicalLocations[0]).toMatchObject({ fullyQualifiedName: 'problems-0001/seq/3' });
    expect(noise.properties).toMatchObject({ seq: 3, session: 'problems-0001', category: 'findings' });
    expect(run.tool.driver.rules[noise.ruleIndex].id).toBe('stdout-not-json');
    const levels = Object.fromEntries(results.map((r) => [r.ruleId, r.level]));
    expect(levels).toMatchObject({ 'unanswered-request': 'error', 'jsonrpc-error': 'warning', 'tool-schema-invalid': 'warning', 'expected-tool-missing': 'error' });
    expect(run.invocations[0]).toMatchObject({ executionSuccessful: true, exitCode: 1 });
  });

  it('gives stable fingerprints: the same results on a re-run, distinct ones for distinct results', async () => {
    const a = JSON.parse(renderSarif(problems, { cwd: ROOT })).runs[0].results.map((r: any) => r.partialFingerprints['mcpTapResult/v1']);
    const b = JSON.parse(renderSarif(await report('check-problems.jsonl', { expectTool: ['missing-tool'] }), { cwd: ROOT })).runs[0].results.map((r: any) => r.partialFingerprints['mcpTapResult/v1']);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(a.length);
  });

  it('names a log outside the working directory by its file: URI, and adds rules for codes of a newer log', () => {
    expect(artifactUri('/tmp/x y.log', '/work')).toEqual({ uri: 'file:///tmp/x%20y.log' });
    expect(artifactUri('/work/logs/a.log', '/work')).toEqual({ uri: 'logs/a.log', uriBaseId: '%SRCROOT%' });
    const r: CheckReport = { ...problems, problems: [{ ruleId: 'future-code', category: 'findings', message: 'm', seq: 1, line: 1 }] };
    const sarif = JSON.parse(renderSarif(r, { cwd: ROOT }));
    expect(validate(sarif)).toBe(true);
    const run = sarif.runs[0];
    expect(run.tool.driver.rules[run.results[0].ruleIndex].id).toBe('future-code');
  });
});

// ---- JUnit -------------------------------------------------------------------------------------------

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decode(s: string): string {
  return s.replace(/&(#x?[0-9a-fA-F]+|\w+);/g, (m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number(e.slice(1)));
    const v = ENTITIES[e];
    if (v === undefined) throw new Error(`unknown entity ${m}`);
    return v;
  });
}

/** A strict little XML parser: throws on anything that is not well-formed (for the JUnit subset). */
function parseXml(xml: string): XmlNode {
  const token = /<\?xml[^?]*\?>|<([A-Za-z][\w.-]*)((?:\s+[A-Za-z_:][\w:.-]*="[^"<]*")*)\s*(\/?)>|<\/([A-Za-z][\w.-]*)>|([^<]+)/gy;
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < xml.length) {
    token.lastIndex = at;
    m = token.exec(xml);
    if (!m) throw new Error(`not well-formed at ${at}: ${xml.slice(at, at + 40)}`);
    at = token.lastIndex;
    const top = stack.at(-1)!;
    if (m[1]) {
      const attrs: Record<string, string> = {};
      for (const a of m[2]!.matchAll(/([A-Za-z_:][\w:.-]*)="([^"]*)"/g)) {
        if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]}`);
        attrs[a[1]!] = decode(a[2]!);
      }
      const node: XmlNode = { name: m[1], attrs, children: [], text: '' };
      top.children.push(node);
      if (!m[3]) stack.push(node);
    } else if (m[4]) {
      if (top.name !== m[4]) throw new Error(`</${m[4]}> closes <${top.name}>`);
      stack.pop();
    } else if (m[5] !== undefined) {
      if (/&(?!(#x?[0-9a-fA-F]+|\w+);)/.test(m[5])) throw new Error('bare &');
      top.text += decode(m[5]);
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack.at(-1)!.name}>`);
  if (root.children.length !== 1) throw new Error('not one root element');
  return root.children[0]!;
}

describe('JUnit XML', () => {
  it('parses back with consistent counts, one testcase per request, per finding code, per security rule, per tool and per assertion', async () => {
    const r = await report('check-problems.jsonl', { expectTool: ['echo', 'nope'] });
    const doc = parseXml(renderJunit(r));
    expect(doc.name).toBe('testsuites');
    const suites = doc.children;
    expect(suites.map((s) => s.attrs['name'])).toEqual(['mcp-tap.requests', 'mcp-tap.findings', 'mcp-tap.security', 'mcp-tap.schemas', 'mcp-tap.assertions']);
    let tests = 0;
    let failures = 0;
    for (const s of suites) {
      const cases = s.children.filter((c) => c.name === 'testcase');
      const failed = cases.filter((c) => c.children.some((x) => x.name === 'failure'));
      expect(Number(s.attrs['tests'])).toBe(cases.length);
      expect(Number(s.attrs['failures'])).toBe(failed.length);
      tests += cases.length;
      failures += failed.length;
    }
    expect(Number(doc.attrs['tests'])).toBe(tests);
    expect(Number(doc.attrs['failures'])).toBe(failures);

    const requests = suites[0]!.children;
    expect(requests).toHaveLength(r.requests.length);
    const failedRequests = requests.filter((c) => c.children.some((x) => x.name === 'failure')).map((c) => [c.attrs['name'], c.children[0]!.attrs['type']]);
    expect(failedRequests).toEqual([
      ['seq 10: tools/call "send-mail" (id 2)', 'tool-is-error'],
      ['seq 12: resources/read "file:///nope" (id 3)', 'jsonrpc-error'],
      ['seq 14: tools/call "echo" (id 4)', 'unanswered-request'],
    ]);
    expect(requests[0]!.attrs['time']).toBe('0.040');

    const findings = suites[1]!.children;
    const findingRules = allRules().filter((x) => x.category === 'findings' || x.category === 'spec' || x.category === 'info');
    expect(findings.map((c) => c.attrs['name'])).toEqual(findingRules.map((x) => x.id));
    const failedFindings = findings.filter((c) => c.children.some((x) => x.name === 'failure'));
    // the tools/list answer (line 9) lists a tool whose inputSchema is "type": "array"
    expect(failedFindings.map((c) => c.attrs['name'])).toEqual(['stdout-not-json', 'schema-violation', 'server-exited-early']);
    expect(failedFindings[0]!.children[0]!.text).toContain('[line 3, seq 3]');

    const security = suites[2]!.children;
    expect(security.map((c) => c.attrs['name'])).toEqual(allRules().filter((x) => x.category === 'security' && !['tool-shadowed', 'names-other-server-tool'].includes(x.id)).map((x) => x.id));
    expect(security.filter((c) => c.children.some((x) => x.name === 'failure'))).toEqual([]);

    const schemas = suites[3]!.children;
    expect(schemas.map((c) => [c.attrs['name'], c.children.length])).toEqual([['tool "echo"', 0], ['tool "list-files"', 1], ['tool "send-mail"', 1], ['tool "resize"', 1]]);
    const assertions = suites[4]!.children;
    expect(assertions.map((c) => [c.attrs['name'], c.children.length])).toEqual([['--expect-tool echo', 0], ['--expect-tool nope', 1]]);
  });

  it('fails a request testcase for a broken --max-ms limit, and escapes wire text', async () => {
    const r = await report('check-clean.jsonl', { maxMs: ['slow-report=100'] });
    const hostile: CheckReport = { ...r, requests: r.requests.map((q, i) => (i === 2 ? { ...q, target: 'a<b>&"c"\u0001\n' } : q)) };
    const xml = renderJunit(hostile);
    const doc = parseXml(xml);
    const names = doc.children[0]!.children.map((c) => c.attrs['name']);
    expect(names[2]).toBe('seq 9: tools/call "a<b>&\\"c\\"\\u0001\\n" (id 2)');
    const slow = doc.children[0]!.children.find((c) => c.attrs['name']!.includes('slow-report'))!;
    expect(slow.children[0]!.attrs['type']).toBe('max-ms-exceeded');
    expect(xmlEscape('x\u0000y\ud800z')).toBe('x\\u0000y\\ud800z');
  });

  it('the checker rejects XML that is not well-formed (it is not vacuous)', () => {
    expect(() => parseXml('<a><b></a>')).toThrow();
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow();
    expect(() => parseXml('<a>&</a>')).toThrow();
    expect(() => parseXml('<a>')).toThrow();
  });
});

// ---- text ------------------------------------------------------------------------------------------

describe('text', () => {
  it('shows the verdict, the session at a glance and each result with its line', async () => {
    const text = renderText(await report('check-problems.jsonl'));
    expect(text.split('\n')[0]).toBe('mcp-tap check: FAIL — 4 failing results');
    expect(text).toContain('  session   initialize 40.0 ms · 4 tools');
    expect(text).toMatch(/✗ stdout-not-json +line 3 +the server wrote/);
    expect(text).toMatch(/! jsonrpc-error +line 13 +the server answered resources\/read/);
    expect(text).toMatch(/✗ schema-violation +line 9 +this answer to tools\/list does not match ListToolsResult of MCP 2025-06-18: \/result\/tools\/1\/inputSchema\/type: expected "object", found "array"/);
    expect(text.trimEnd().split('\n').at(-1)).toBe('FAIL: findings, spec, unanswered (--fail-on findings,spec,unanswered,assertions,security)');
    const pass = renderText(await report('check-clean.jsonl', { expectTool: ['echo'] }));
    expect(pass.split('\n')[0]).toBe('mcp-tap check: PASS');
    expect(pass).toContain('  ✓ --expect-tool echo');
  });

  it('escapes control characters from the wire', async () => {
    const r = await report('check-clean.jsonl');
    const text = renderText({ ...r, problems: [{ ruleId: 'jsonrpc-error', category: 'errors', message: 'bad\u001b[31m\nnext', seq: 1, line: 1 }] });
    expect(text).toContain('bad\\x1b[31m\\nnext');
  });
});
