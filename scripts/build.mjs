#!/usr/bin/env node
/**
 * `npm run build`: bundles mcp-tap into dist/ with esbuild. The type check is `tsc --noEmit`; this only
 * emits. Dependencies are bundled too: proxy mode then loads one small file and the chunks it imports,
 * instead of resolving and parsing dozens of files in node_modules (execa alone costs ~150 ms that way).
 * Each subcommand is reached through a dynamic import in src/cli/main.ts, so code splitting gives it its
 * own chunk and the proxy never loads commander, ajv or the SDK.
 *
 * To extend:
 * - a Node program that runs as its own process (like the demo server): add it to NODE_ENTRIES;
 * - a bundle for the browser (a page script): add it to PAGES in scripts/build-page.mjs, which `npm run
 *   build` runs first; it writes src/generated/page-bundles.ts, which this bundle inlines like any module.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = 'dist';

/**
 * Node entry points, output name → source. Every output sits directly in dist/, as every source file
 * they may come from sits directly in src/ (src/version.ts, src/package-paths.ts): those find the package
 * root as `..` from whichever file they end up in. The check at the end enforces it.
 */
export const NODE_ENTRIES = {
  // the CLI (bin/mcp-tap.js imports it); subcommands become chunks of it
  main: 'src/cli/main.ts',
  // the demo's bundled server runs as a child process
  'serve-demo': 'src/demo/serve-demo.ts',
  // the analysis of a stdio run runs in this worker thread, beside the relay
  'analysis-worker': 'src/proxy/analysis-worker.ts',
  // imported by test/fixtures/young-generation.mjs
  'young-generation': 'src/proxy/young-generation.ts',
};

// CommonJS packages bundled into ESM still call require() for Node built-ins; give them a real one.
const REQUIRE_SHIM = "import { createRequire as __tapCreateRequire } from 'node:module'; const require = __tapCreateRequire(import.meta.url);";

/** Builds everything into dist/ (emptied first); returns esbuild's metafile of the Node bundle. */
export async function buildAll({ root = ROOT, outdir = OUT, quiet = false } = {}) {
  rmSync(resolve(root, outdir), { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: NODE_ENTRIES,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: ['node20'],
    // ESM builds of dependencies where they ship one (jsonc-parser's "main" is UMD, opaque to a bundler)
    mainFields: ['module', 'main'],
    chunkNames: '[name]-[hash]',
    // pino runs transports in worker threads that load files from its package by path: it stays in
    // node_modules (imported lazily, for --debug and --ship only, so the proxy's start does not pay);
    // gpt-tokenizer's 2.4 MB of o200k ranks stay there too, imported only by readers that show tokens
    external: ['pino', 'pino-*', 'thread-stream', 'gpt-tokenizer', 'gpt-tokenizer/*'],
    sourcemap: true,
    banner: { js: REQUIRE_SHIM },
    metafile: true,
    logLevel: quiet ? 'error' : 'warning',
  });
  for (const file of Object.keys(result.metafile.outputs)) {
    if (relative(resolve(root, outdir), resolve(root, file)).includes(sep)) throw new Error(`${file}: bundle outputs must sit directly in ${outdir}/ (see NODE_ENTRIES)`);
  }
  return result.metafile;
}

// `node scripts/build.mjs [--outdir <dir>]`: another directory for a private build (docs/performance.md)
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--outdir');
  await buildAll(at > 0 && process.argv[at + 1] ? { outdir: resolve(process.argv[at + 1]) } : {});
}
