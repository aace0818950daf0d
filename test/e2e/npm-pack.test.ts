/**
 * What `npm i -g mcp-tap` installs: `npm pack --dry-run` lists the CLI, every module the built entry
 * loads (followed import by import from bin/mcp-tap.js), the README, LICENSE, CHANGELOG and text docs,
 * and nothing of the tests, the bench, the TypeScript sources or the fixtures (nor source maps that
 * point at those sources). Needs `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

interface PackFile {
  path: string;
  size: number;
}

let files: PackFile[];
let paths: Set<string>;

/** `npm pack --dry-run --json` without lifecycle scripts (a prepack build would make this test slow). */
function packList(): PackFile[] {
  const npmCli = process.env['npm_execpath'];
  const args = ['pack', '--dry-run', '--json', '--ignore-scripts'];
  const out = npmCli?.endsWith('.js')
    ? execFileSync(process.execPath, [npmCli, ...args], { cwd: ROOT, encoding: 'utf8' })
    : execFileSync('npm', args, { cwd: ROOT, encoding: 'utf8' });
  const parsed = JSON.parse(out) as { files: PackFile[] }[];
  return parsed[0]!.files;
}

/**
 * Package-relative paths a module loads or opens beside itself: static and dynamic imports (a template
 * import stands for every built file it can name), and `new URL(…, import.meta.url)`.
 */
function relativeRefs(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const refs = [
    ...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g),
    ...text.matchAll(/new URL\(\s*(['"])(\.{1,2}\/[^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g),
  ].map((m) => m[2]!);
  const resolved = refs.map((r) => posix.normalize(posix.join(posix.dirname(file), r)));
  // import(`./commands/${name}.js`): every built file the pattern can name
  for (const m of text.matchAll(/\bimport\s*\(\s*`(\.{1,2}\/[^`]*)`\s*\)/g)) {
    const pattern = posix.normalize(posix.join(posix.dirname(file), m[1]!));
    const dir = posix.dirname(pattern);
    const name = new RegExp(`^${posix.basename(pattern).split(/\$\{[^}]*\}/).map(escapeRegExp).join('[^/]+')}$`);
    for (const f of readdirSync(join(ROOT, dir))) if (name.test(f)) resolved.push(posix.join(dir, f));
  }
  return resolved;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

beforeAll(() => {
  const entry = /['"](\.\.\/dist\/[^'"]+)['"]/.exec(readFileSync(join(ROOT, 'bin', 'mcp-tap.js'), 'utf8'));
  if (!entry || !existsSync(join(ROOT, 'bin', entry[1]!))) {
    throw new Error('bin/mcp-tap.js does not load a built dist/ file: run `npm run build` first');
  }
  files = packList();
  paths = new Set(files.map((f) => f.path));
});

describe('npm pack', () => {
  it('holds the CLI, its built entry, package.json, README, LICENSE and CHANGELOG', () => {
    for (const p of ['bin/mcp-tap.js', 'package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) expect(paths, p).toContain(p);
    const entry = /['"]\.\.\/(dist\/[^'"]+)['"]/.exec(readFileSync(join(ROOT, 'bin', 'mcp-tap.js'), 'utf8'))![1]!;
    expect(paths).toContain(entry);
  });

  it('holds every file the CLI loads, followed from its entry', () => {
    const seen = new Set<string>();
    const todo = ['bin/mcp-tap.js'];
    const missing: string[] = [];
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      if (!paths.has(file)) {
        missing.push(file);
        continue;
      }
      if (file.endsWith('.js') || file.endsWith('.mjs')) todo.push(...relativeRefs(file));
    }
    expect(missing).toEqual([]);
    expect(seen.size, "the walk got past bin and its entry").toBeGreaterThan(2);
  });

  it('holds nothing of the tests, the bench, the sources or the fixtures', () => {
    const stray = [...paths].filter(
      (p) =>
        /^(test|bench|src|\.ci|node_modules|coverage)\//.test(p) ||
        /(^|\/)fixtures?\//.test(p) ||
        /\.test\.[cm]?[jt]s$/.test(p) ||
        (p.endsWith('.ts') && !p.endsWith('.d.ts')) ||
        p === 'tsconfig.json' ||
        p === 'vitest.config.ts' ||
        p === 'package-lock.json',
    );
    expect(stray).toEqual([]);
  });

  it('ships no source map that points at sources it does not ship', () => {
    const useless = [...paths].filter((p) => {
      if (!p.endsWith('.map')) return false;
      const map = JSON.parse(readFileSync(join(ROOT, p), 'utf8')) as { sources: string[]; sourcesContent?: unknown[] };
      if (map.sourcesContent?.length === map.sources.length) return false;
      return map.sources.some((s) => !paths.has(posix.normalize(posix.join(posix.dirname(p), s))));
    });
    expect(useless).toEqual([]);
  });

  it('ships the docs the CLI help names, as text only', () => {
    expect(paths).toContain('docs/check.md');
    expect(paths).toContain('docs/log-format.md');
    const docs = files.filter((f) => f.path.startsWith('docs/'));
    expect(docs.every((f) => f.path.endsWith('.md'))).toBe(true);
  });
});
