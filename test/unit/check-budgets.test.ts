/**
 * Token budgets as check assertions (issue 30): `--max-context-tokens` passes at the session's cost and
 * fails one token below it, naming the costliest tools; `--max-result-tokens` fails for each result over
 * it, located at the answer, naming the first OVER_LIMIT_KEPT and counting the rest (issue 28 §1: the
 * summary's assertionsFailed counts every one); bad values are usage errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { planCheck } from '../../src/check/check-options.js';
import type { CheckReport } from '../../src/check/report.js';
import { checkLog } from '../../src/check/run-check.js';
import { toolText } from '../../src/lens/context/model-text.js';
import { loadTokenizer, type Tokenizer } from '../../src/lens/context/tokenizer.js';
import { ROOT } from '../helpers/paths.js';
import { OVER_LIMIT_KEPT } from '../../src/lens/context/context-cost.js';
import { readRecords } from '../helpers/log.js';
import { handshake, harness, req, res } from './helpers/session-harness.js';

const LOG = join(ROOT, 'test', 'fixtures', 'logs', 'report-basic.jsonl');
const check = (flags: Record<string, string>): Promise<CheckReport> => checkLog(planCheck([LOG], { format: 'json', failOn: ['assertions'], ...flags }), () => {});

let tok: Tokenizer;
let cost: number;
beforeAll(async () => {
  tok = await loadTokenizer();
  // the definitions as listed, counted independently of the fold: the tools/list answer of the fixture
  const list = readRecords(LOG).find((r) => r.kind === 'response' && r.method === 'tools/list')!;
  const tools = (list['msg'] as { result: { tools: Array<Record<string, unknown>> } }).result.tools;
  cost = tools.reduce((n, t) => n + tok.count(toolText(t)), 0);
});

describe('--max-context-tokens', () => {
  it('passes at the cost and fails one token below it, naming what costs most', async () => {
    const pass = await check({ maxContextTokens: String(cost) });
    expect(pass.passed).toBe(true);
    expect(pass.assertions).toEqual([{ flag: `--max-context-tokens ${cost}`, passed: true, failures: 0, matched: 1 }]);
    expect(pass.context?.beforeFirstMessage).toBe(cost);
    const fail = await check({ maxContextTokens: String(cost - 1) });
    expect(fail.passed).toBe(false);
    expect(fail.failed).toEqual(['assertions']);
    const p = fail.problems.find((x) => x.ruleId === 'max-context-tokens-exceeded')!;
    expect(p.message).toMatch(new RegExp(`^the tool definitions cost ${cost} tokens \\(o200k_base\\), over the ${cost - 1} limit \\(--max-context-tokens ${cost - 1}\\); most: "(echo|slow)" \\d+, "(echo|slow)" \\d+$`));
    expect(p.seq).toBe(readRecords(LOG).find((r) => r.kind === 'response' && r.method === 'tools/list')!.seq);
  });
});

describe('--max-result-tokens', () => {
  it('fails for each result over the limit, at its answer', async () => {
    const r = await check({ maxResultTokens: '10' });
    const over = r.problems.filter((x) => x.ruleId === 'max-result-tokens-exceeded');
    expect(over.map((x) => x.message)).toEqual([expect.stringMatching(/^the result of tool "echo" \(seq 11\) costs 18 tokens \(o200k_base\), over the 10 limit \(--max-result-tokens 10\)$/)]);
    expect(over[0]!.line).toBe(11);
    expect(r.assertions[0]).toEqual({ flag: '--max-result-tokens 10', passed: false, failures: 1, matched: 3 });
    // the boundary: the result's own count passes, one token less fails
    expect((await check({ maxResultTokens: '18' })).passed).toBe(true);
    expect((await check({ maxResultTokens: '17' })).assertions[0]).toMatchObject({ passed: false, failures: 1 });
  });

  it('counts every result over the limit past the first it names, in the summary and the outcome', async () => {
    const h = handshake(harness());
    const calls = OVER_LIMIT_KEPT + 30;
    for (let i = 1; i <= calls; i++) {
      h.send('client', req(i, 'tools/call', { name: 'echo', arguments: { message: 'x' } }));
      h.send('server', res(i, { content: [{ type: 'text', text: 'many words in this result '.repeat(20) }] }));
    }
    h.finish();
    const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-budgets-'));
    try {
      const log = join(dir, 'big.jsonrpc.log');
      writeFileSync(log, `${h.lines.join('\n')}\n`);
      const r = await checkLog(planCheck([log], { format: 'json', failOn: ['assertions'], maxResultTokens: '10' }), () => {});
      expect(r.problems.filter((x) => x.ruleId === 'max-result-tokens-exceeded')).toHaveLength(OVER_LIMIT_KEPT);
      expect(r.omittedResults).toEqual([{ ruleId: 'max-result-tokens-exceeded', category: 'assertions', count: calls - OVER_LIMIT_KEPT }]);
      expect(r.assertions[0]).toMatchObject({ passed: false, failures: calls });
      expect(r.summary.assertionsFailed).toBe(calls);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a budget that is not a whole number ≥ 1', () => {
    expect(() => planCheck([LOG], { format: 'text', maxResultTokens: '0' })).toThrow(/--max-result-tokens takes a number of tokens/);
    expect(() => planCheck([LOG], { format: 'text', maxContextTokens: '1e3' })).toThrow(/--max-context-tokens takes a number of tokens/);
  });
});
