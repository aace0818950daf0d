/** The HTML report's session header shows the context cost the export measured (issue 30), with links to the largest results. */
import { describe, expect, it } from 'vitest';
import { ContextCostBuilder } from '../../src/lens/context/context-cost.js';
import { loadTokenizer } from '../../src/lens/context/tokenizer.js';
import type { LogRecord } from '../../src/log/record.js';
import { renderHeaderHtml } from '../../src/report/header-html.js';
import { summarizeSession } from '../../src/transcript/summary.js';

describe('report context cost', () => {
  it('lists the tokens before the first message, the costliest tools, those never called and the largest results', async () => {
    const tok = await loadTokenizer();
    const records: LogRecord[] = [
      { v: 1, time: 0, session: 's', seq: 1, from: 'server', kind: 'response', method: 'tools/list', msg: { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'a<b', description: 'x'.repeat(50), inputSchema: { type: 'object' } }, { name: 'c', inputSchema: { type: 'object' } }] } } },
      { v: 1, time: 1, session: 's', seq: 2, from: 'client', kind: 'request', method: 'tools/call', target: 'c' },
      { v: 1, time: 2, session: 's', seq: 3, from: 'server', kind: 'response', method: 'tools/call', target: 'c', msg: { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'Hello, world!' }] } } },
    ];
    const b = new ContextCostBuilder('s', tok);
    for (const r of records) b.add(r);
    const html = renderHeaderHtml(summarizeSession(records), b.finish());
    expect(html).toContain('<caption>Context cost (tokens, o200k_base; an estimate for other models)</caption>');
    expect(html).toMatch(/<th scope="row">Before the first message<\/th><td>\d+ tokens<\/td>/);
    expect(html).toContain('<code>a&lt;b</code>');
    expect(html).toMatch(/<th scope="row">Never called \(1\)<\/th><td>\d+ — <code>a&lt;b<\/code>/);
    expect(html).toContain('<a href="#seq-3" class="goto" data-goto="3">#3</a> <code>c</code> 4');
    expect(renderHeaderHtml(summarizeSession(records))).not.toContain('Context cost');
  });
});
