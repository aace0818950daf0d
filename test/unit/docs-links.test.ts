/**
 * Every relative link in the top-level Markdown files (README, CONTRIBUTING, CHANGELOG) and in docs/
 * leads somewhere: the file exists, and a `#anchor` into a Markdown file names one of its headings as
 * GitHub slugs them. Links with a scheme (https:, mailto:) are not followed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function markdownFiles(): string[] {
  const top = readdirSync(root).filter((f) => f.endsWith('.md'));
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  return [...top, ...docs].sort();
}

/** The text with fenced code blocks blanked out (line count kept, for messages). */
function withoutFences(text: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence === null && open) fence = open[1]!;
    else if (fence !== null && line.trim().startsWith(fence)) fence = null;
    else if (fence === null) {
      out.push(line);
      continue;
    }
    out.push('');
  }
  return out.join('\n');
}

function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, (m) => ' '.repeat(m.length));
}

interface Link {
  target: string;
  line: number;
}

/** Inline links and images `[text](target "title")` and reference definitions `[label]: target`. */
function linksIn(text: string): Link[] {
  const links: Link[] = [];
  withoutFences(text)
    .split('\n')
    .forEach((raw, i) => {
      const line = withoutCodeSpans(raw);
      for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) {
        links.push({ target: m[1]!.replace(/^<|>$/g, ''), line: i + 1 });
      }
      const def = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
      if (def) links.push({ target: def[1]!.replace(/^<|>$/g, ''), line: i + 1 });
    });
  return links;
}

/** GitHub's heading anchors: rendered text lower-cased, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutFences(text).split('\n')) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const rendered = h[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/`/g, '')
      .replace(/(^|[^\p{L}\p{N}])_+([^_]+?)_+(?=$|[^\p{L}\p{N}])/gu, '$1$2')
      .replace(/\*/g, '');
    const base = rendered
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s[^>]*(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

/** What is wrong with one link from `file` (repo-relative), or null when it resolves. */
function problem(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const resolved = pathPart === '' ? join(root, file) : join(root, dirname(file), pathPart);
  if (!existsSync(resolved)) return `no file ${relative(root, resolved)}`;
  if (anchor === null || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) return null;
  const anchors = headingAnchors(readFileSync(resolved, 'utf8'));
  return anchors.has(anchor) ? null : `no heading #${anchor} in ${relative(root, resolved)}`;
}

describe('relative links in the docs', () => {
  const files = markdownFiles();

  it('covers the README and the docs folder', () => {
    expect(files).toContain('README.md');
    expect(files.filter((f) => f.startsWith('docs'))).toContain(join('docs', 'log-format.md'));
  });

  for (const file of files) {
    it(`${file}: every relative link resolves`, () => {
      const text = readFileSync(join(root, file), 'utf8');
      const broken = linksIn(text)
        .map((l) => ({ at: `${file}:${l.line} ${l.target}`, why: problem(file, l.target) }))
        .filter((b) => b.why !== null);
      expect(broken).toEqual([]);
    });
  }
});

describe('the link checker itself', () => {
  it('finds inline links, images and reference definitions, not code', () => {
    const md = [
      'See [the log](docs/log-format.md#notes) and ![shot](docs/a.png "A shot").',
      '`[not](a-link.md)` and [web](https://example.com)',
      '```',
      '[inside](a-fence.md)',
      '```',
      '[ref]: docs/tail.md',
    ].join('\n');
    expect(linksIn(md).map((l) => l.target)).toEqual([
      'docs/log-format.md#notes',
      'docs/a.png',
      'https://example.com',
      'docs/tail.md',
    ]);
  });

  it('slugs headings as GitHub does', () => {
    const md = [
      '# mcp-tap',
      '## `mcp-tap tail`: follow a log',
      '### 5. What each step of the hot path bought',
      '## Targets and latest results',
      '## Notes',
      '## Notes',
      '## Signals and orphans, per OS',
      '## 1,000,000 messages × 2',
    ].join('\n');
    expect([...headingAnchors(md)]).toEqual([
      'mcp-tap',
      'mcp-tap-tail-follow-a-log',
      '5-what-each-step-of-the-hot-path-bought',
      'targets-and-latest-results',
      'notes',
      'notes-1',
      'signals-and-orphans-per-os',
      '1000000-messages--2',
    ]);
  });

  it('reports a missing file and a missing heading', () => {
    expect(problem('README.md', 'docs/no-such-page.md')).toMatch(/no file docs\/no-such-page\.md/);
    expect(problem('README.md', 'docs/log-format.md#no-such-heading')).toMatch(/no heading #no-such-heading/);
    expect(problem('docs/tail.md', 'log-format.md#notes')).toBeNull();
    expect(problem('README.md', 'https://example.com/x.md#y')).toBeNull();
  });
});
