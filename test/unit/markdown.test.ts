/**
 * The Markdown export: golden files for the fixture sessions, and wire text that tries to break out of
 * code fences, `<details>` blocks, tables or the terminal. Goldens are compared after normalising the
 * exporting version; to accept a change on purpose: UPDATE_GOLDEN=1 npx vitest run test/unit/markdown.test.ts
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { LogRecord } from '../../src/log/record.js';
import { renderMarkdown } from '../../src/transcript/markdown.js';
import { code, fence, html, prose } from '../../src/transcript/md-escape.js';
import { redactRecords } from '../../src/transcript/redact.js';
import { VERSION } from '../../src/version.js';
import { plantedRedactOptions, SECRETS_LOG } from '../fixtures/planted-secrets.js';
import { readRecords } from '../helpers/log.js';

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);

const load = (path: string | URL): LogRecord[] => readRecords(path) as unknown as LogRecord[];

/** Volatile values → placeholders: only the exporting version changes between runs of the same log. */
function normalise(md: string): string {
  return md.replaceAll(`Exported by mcp-tap ${VERSION}`, 'Exported by mcp-tap <version>');
}

function golden(name: string, actual: string): void {
  const url = new URL(name, GOLDEN);
  const text = normalise(actual);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(url, text);
  else if (!existsSync(url)) throw new Error(`golden ${name} is missing; create it with UPDATE_GOLDEN=1 npx vitest run test/unit/markdown.test.ts`);
  expect(text, `${name} differs; if the change is intended run UPDATE_GOLDEN=1 npx vitest run test/unit/markdown.test.ts`).toBe(readFileSync(url, 'utf8'));
}

describe('golden Markdown', () => {
  it('secrets.jsonl, redacted (with the user rules)', () => {
    const recs = redactRecords(load(SECRETS_LOG), plantedRedactOptions);
    golden('secrets.md', renderMarkdown(recs, { redacted: true, exporterVersion: VERSION }));
  });

  it('stats.jsonl, redacted, both sessions of a two-session log', () => {
    const one = load(new URL('../fixtures/logs/stats.jsonl', import.meta.url));
    golden('stats.md', renderMarkdown(redactRecords(one), { redacted: true, exporterVersion: VERSION }));
    const two = [...one, ...one.map((r) => ({ ...r, session: 'fixture-stats-again', time: r.time + 60_000 }))];
    golden('stats-two-sessions.md', renderMarkdown(two, { redacted: false, exporterVersion: VERSION, maxBody: 300 }));
  });
});

describe('what the header and summary say', () => {
  const md = renderMarkdown(redactRecords(load(SECRETS_LOG), plantedRedactOptions), { redacted: true, exporterVersion: VERSION });

  it.each([
    ['mcp-tap version', /^\| mcp-tap \| `0\.1\.0` \|$/m],
    ['OS', /^\| OS \| `linux x64` \|$/m],
    ['Node version', /^\| Node\.js \| `20\.11\.1` \|$/m],
    ['server command, redacted', /^\| Server command \| `env 'GITHUB_TOKEN=\[REDACTED:github-token\]' node server\.js/m],
    ['clientInfo', /^\| Client \| `fixture-host 1\.4\.0` \|$/m],
    ['serverInfo', /^\| Server \| `secret-server 0\.9\.1` \|$/m],
    ['protocol version', /^\| Protocol version \| `2025-06-18` \|$/m],
    ['start', /^\| Started \| 2026-01-02T03:04:05\.000Z \|$/m],
    ['duration', /^\| Duration \| 411\.0 ms \|$/m],
    ['exit', /^\| Exit \| code 1 \|$/m],
    ['errors', /^\| Error responses \| 1 \|$/m],
    ['isError results', /^\| isError results \| 1 \|$/m],
    ['findings', /^\| Findings \| 5 \|$/m],
    ['unanswered', /^\| Unanswered requests \| 2 \|$/m],
    ['slowest calls', /^\| 13 \| `tools\/call` \| `fetch` \| 50\.0 ms \| error \|$/m],
    ['a request with its answer and latency', /^`\+0\.110 s` \*\*#13\*\* client → server request `tools\/call` · `fetch` · id `3` — \*\*error\*\* -32000 `upstream rejected key \[REDACTED:aws-access-key\]` in 50\.0 ms \(#14\)$/m],
    ['findings called out', /^> \[!WARNING\]\n> `stdout-not-json` the server wrote a line/m],
    ['stderr section', /^## Server stderr\n\n13 lines/m],
    ['redaction notice', /Secrets are redacted/],
  ])('%s', (_what, re) => {
    expect(md).toMatch(re);
  });

  it('says so loudly when not redacted', () => {
    expect(renderMarkdown(load(SECRETS_LOG), { redacted: false, exporterVersion: 'x' })).toContain('**without redaction**');
  });
});

// ---------------------------------------------------------------------------------------------------
// Escaping

/**
 * Splits Markdown into what is inside fenced code blocks and what is outside, the way CommonMark does:
 * a fence of n backticks is closed only by a line of at least n backticks and nothing else.
 */
function splitFences(md: string): { inside: string[]; outside: string } {
  const inside: string[] = [];
  const outside: string[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})[^`]*$/.exec(lines[i]!);
    if (!open) {
      outside.push(lines[i]!);
      continue;
    }
    const n = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^(`{3,})\s*$/.exec(lines[j]!);
      if (close && close[1]!.length >= n) break;
      body.push(lines[j]!);
    }
    expect(j, 'every fence is closed').toBeLessThan(lines.length);
    inside.push(body.join('\n'));
    i = j;
  }
  return { inside, outside: outside.join('\n') };
}

const base = { v: 1, session: 'hostile', from: 'server' } as const;

function hostileSession(): LogRecord[] {
  const payload = 'HOSTILE ``` ```` \n````\n</details>\n<script>alert(1)</script>\n# Heading\n~~~\n| a | b |';
  return [
    { ...base, time: 1000, seq: 1, from: 'proxy', kind: 'event', event: 'start', name: 'evil`name', command: 'node', args: ['a|b', '`x`'], versions: { mcpTap: '0.1.0', node: '20', platform: 'linux', arch: 'x64' } },
    { ...base, time: 1001, seq: 2, from: 'client', kind: 'request', id: 1, method: 'tools/call', target: 'to`ol|<b>x</b>\n# not a heading', bytes: 10, msg: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } } },
    { ...base, time: 1002, seq: 3, kind: 'response', id: 1, method: 'tools/call', reqSeq: 2, ms: 1, bytes: 10, msg: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: payload }] } } },
    { ...base, time: 1003, seq: 4, kind: 'invalid', raw: `${payload}\u001b[2J\u0007\u202e`, bytes: 10, notes: [{ code: 'stdout-not-json', text: 'quoted <b>wire</b> [link](http://x) @someone #1 `tick`' }] },
    { ...base, time: 1004, seq: 5, kind: 'stderr', raw: `${payload}\u001b]0;title\u0007` },
    { ...base, time: 1005, seq: 6, kind: 'notification', method: 'notifications/message\n## injected', bytes: 10, msg: { jsonrpc: '2.0', method: 'x', params: { data: 'a\u001b[31mred\u0085\u2028' } } },
  ];
}

describe('wire text cannot break out', () => {
  const md = renderMarkdown(hostileSession(), { redacted: false, exporterVersion: 'x' });
  const { inside, outside } = splitFences(md);

  it('fences are longer than any backtick run inside them, so the payload stays inside', () => {
    expect(inside.filter((b) => b.includes('HOSTILE')).length).toBeGreaterThanOrEqual(3);
    expect(outside).not.toContain('HOSTILE');
    expect(outside).not.toContain('<script');
  });

  it('<details> blocks open and close in pairs outside the fences', () => {
    const opens = outside.match(/<details>/g)?.length ?? 0;
    const closes = outside.match(/<\/details>/g)?.length ?? 0;
    expect(opens).toBeGreaterThan(0);
    expect(closes).toBe(opens);
  });

  it('no wire text starts a line (no injected headings) and names with backticks stay code spans', () => {
    expect(outside).not.toMatch(/^#+ (not a heading|injected)/m);
    expect(outside).toContain('``to`ol|<b>x</b>⏎# not a heading``');
    expect(outside).toContain('``evil`name``');
  });

  it('table cells escape pipes', () => {
    const cmd = outside.split('\n').find((l) => l.startsWith('| Server command'))!;
    expect(cmd).toBe("| Server command | ``node 'a\\|b' '`x`'`` |");
  });

  it('finding texts cannot link, mention or add HTML', () => {
    expect(outside).toContain('quoted &lt;b&gt;wire&lt;/b&gt; \\[link\\](http://x) @\u200bsomeone \\#1 \\`tick\\`');
  });

  it('control and bidi characters are made visible everywhere, JSON stays valid', () => {
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2028\u2029]/);
    expect(md).toContain('\\x1b[2J');
    expect(md).toContain('\\x1b]0;title\\x07');
    const json = inside.find((b) => b.includes('[31mred'))!;
    expect(JSON.parse(json)).toEqual({ jsonrpc: '2.0', method: 'x', params: { data: 'a\u001b[31mred\u0085\u2028' } });
  });
});

describe('long bodies', () => {
  it('are shortened with their size shown', () => {
    const big = 'x'.repeat(200_000);
    const recs: LogRecord[] = [
      { ...base, time: 1, seq: 1, from: 'client', kind: 'request', id: 1, method: 'tools/call', bytes: 50, msg: { id: 1 } },
      { ...base, time: 2, seq: 2, kind: 'response', id: 1, reqSeq: 1, ms: 1, bytes: 200_040, msg: { id: 1, result: { blob: big, list: Array.from({ length: 500 }, (_, i) => i) } } },
    ];
    const md = renderMarkdown(recs, { redacted: true, exporterVersion: 'x', maxBody: 2000 });
    expect(md.length).toBeLessThan(6000);
    expect(md).toContain('<summary>result #2 · 1.0 ms · 195.4 KiB · shortened here</summary>');
    expect(md).toContain('…[+199840 chars]');
    expect(md).toContain('…[+488 more items]');
  });

  it('keep stderr readable: first and last lines of a long stderr', () => {
    const recs: LogRecord[] = Array.from({ length: 1000 }, (_, i) => ({ ...base, time: i, seq: i + 1, kind: 'stderr' as const, raw: `line ${i}` }));
    const md = renderMarkdown(recs, { redacted: true, exporterVersion: 'x', maxStderrLines: 10 });
    expect(md).toContain('1000 lines');
    expect(md).toContain('+0.004 s  line 4\n… [990 lines left out] …\n+0.995 s  line 995');
  });
});

describe('md-escape helpers', () => {
  it.each([
    ['plain', 'a', '`a`'],
    ['backtick', 'a`b', '``a`b``'],
    ['starts with backtick', '`a', '`` `a ``'],
    ['run of three', 'a```b', '````a```b````'],
    ['empty', '', '` `'],
    ['newline', 'a\nb', '`a⏎b`'],
  ])('code(%s)', (_n, input, expected) => {
    expect(code(input)).toBe(expected);
  });

  it('fence picks a longer fence than the text holds', () => {
    expect(fence('a ```` b', 'json')).toBe('`````json\na ```` b\n`````');
    expect(fence('plain')).toBe('```\nplain\n```');
  });

  it('html and prose escape what matters', () => {
    expect(html('<a href="x">&\'')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
    expect(prose('*bold* _i_ [l](u) <b>')).toBe('\\*bold\\* \\_i\\_ \\[l\\](u) &lt;b&gt;');
  });
});
