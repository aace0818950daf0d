#!/usr/bin/env node
// Installs the tools only a few suites need (test/tools/package.json, locked: an OTLP receiver, the
// OpenTelemetry semantic conventions, wabt, the MCP conformance suite) into .cache/test-tools, apart
// from the project's own node_modules so a contributor's `npm ci` stays small (cached-install.mjs). Run
// by .ci/run, by `npm run build:wasm` and, when missing, by the tests that need them
// (test/helpers/test-tools.ts). Exits non-zero when it cannot install.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedInstall, installMain, REPO } from './cached-install.mjs';

const tools = cachedInstall(join(REPO, 'test', 'tools'), join(REPO, '.cache', 'test-tools'));

export const TOOLS_PREFIX = tools.prefix;
/** Installs when needed; returns an error message, or null when the tools are there. */
export const installTestTools = tools.install;

if (process.argv[1] === fileURLToPath(import.meta.url)) installMain('install-test-tools', installTestTools);
