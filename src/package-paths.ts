/**
 * Files of the installed package, found from this module. It sits directly in src/, and whatever bundle
 * file it ends up in sits directly in dist/ (scripts/build.mjs checks), so the same relative URL finds
 * the package root when vitest runs the sources and when node runs the bundle.
 */
import { fileURLToPath } from 'node:url';

/** The package root (where package.json, bin/ and dist/ are). */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The CLI's launcher, for subcommands that run mcp-tap as a child process (check --run, replay, demo). */
export const CLI_BIN = fileURLToPath(new URL('../bin/mcp-tap.js', import.meta.url));

/** The bundled demo server's entry point (a separate bundle entry: it runs as its own process). */
export const DEMO_SERVER = fileURLToPath(new URL('../dist/serve-demo.js', import.meta.url));

/** The analysis worker of a stdio run (a separate bundle entry: it runs as a worker thread). */
export const ANALYSIS_WORKER = fileURLToPath(new URL('../dist/analysis-worker.js', import.meta.url));
