/**
 * No import loops in src/: following relative imports (type-only ones too) from any module never leads
 * back to it. A loop means two modules are one concern split in two, or a shared piece belongs lower.
 * And lower layers (the relay's framing, protocol, session, log) never import from the readers and
 * front ends built on them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** Module → the modules it imports (relative specifiers, `.js` mapped back to `.ts`). */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)\.js'/g)].map((m) =>
      normalize(join(dirname(file), `${m[1]!}.ts`)),
    );
    graph.set(file, deps);
  }
  return graph;
}

/** Every loop, each as the modules on it starting from where it was entered. */
function loops(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (m: string): void => {
    state.set(m, 'open');
    path.push(m);
    for (const d of graph.get(m) ?? []) {
      if (state.get(d) === 'open') found.push([...path.slice(path.indexOf(d)), d]);
      else if (state.get(d) === undefined) visit(d);
    }
    path.pop();
    state.set(m, 'done');
  };
  for (const m of graph.keys()) if (!state.has(m)) visit(m);
  return found;
}

describe('src/ import graph', () => {
  it('has no loops', () => {
    const graph = importGraph(sourceFiles(SRC));
    expect(graph.size).toBeGreaterThan(100);
    expect(loops(graph).map((l) => l.map((m) => relative(SRC, m)).join(' → '))).toEqual([]);
  });

  it('keeps lower layers free of imports from higher ones', () => {
    const lower = ['framing', 'protocol', 'session', 'log'];
    const higher = ['view', 'cli', 'check', 'transcript', 'report', 'ui', 'session-view', 'lens', 'spec', 'mcp'];
    const upward: string[] = [];
    for (const [file, deps] of importGraph(sourceFiles(SRC))) {
      if (!lower.includes(relative(SRC, file).split(/[\\/]/)[0]!)) continue;
      for (const d of deps) {
        if (higher.includes(relative(SRC, d).split(/[\\/]/)[0]!)) upward.push(`${relative(SRC, file)} → ${relative(SRC, d)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('finds a loop when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(loops(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });
});
