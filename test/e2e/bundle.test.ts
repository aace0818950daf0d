/**
 * The built CLI is an esbuild bundle with code splitting: proxy mode loads the relay and nothing a
 * subcommand needs (no commander, ajv, SDK, no tokenizer, and no pino unless --debug), `tail` does not
 * load the relay, and only readers that show token figures load the tokenizer. Checked by recording every module node loads, then looking for each library in their source.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, fixture, ROOT } from '../helpers/paths.js';
import { tapSandbox } from '../helpers/run-tap.js';

const box = tapSandbox('mcp-tap-bundle-');
const HOOK = join(ROOT, 'test', 'fixtures', 'loader', 'record-loads.mjs');

/** A string only the named library's code contains (checked against the bundle in the last test). */
const MARKERS = {
  commander: '_optionValueSources',
  ajv: 'strictSchema',
  sdk: 'LATEST_PROTOCOL_VERSION',
  pino: 'Symbol("pino.chindings")',
  execa: 'forceKillAfterDelay',
  relay: 'mcp-tap-watchdog',
} as const;
type Library = keyof typeof MARKERS | 'tokenizer';

/** The libraries whose code the program loaded, run with `args` and `input` on stdin. */
function loadedLibraries(args: string[], input = ''): Set<Library> {
  const file = join(box.dir, `loads-${Math.random().toString(36).slice(2)}.txt`);
  execFileSync(process.execPath, ['--import', HOOK, CLI, ...args], { cwd: ROOT, input, env: { ...process.env, LOADS_FILE: file, XDG_STATE_HOME: box.dir }, stdio: ['pipe', 'pipe', 'pipe'] });
  const all = readFileSync(file, 'utf8').trim().split('\n');
  const urls = all.filter((u) => u.startsWith('file:') && u.includes('/dist/'));
  expect(urls.length).toBeGreaterThan(0);
  const source = urls.map((u) => readFileSync(fileURLToPath(u), 'utf8')).join('\n');
  const libs = new Set((Object.keys(MARKERS) as Library[]).filter((lib) => source.includes(MARKERS[lib])));
  // pino and gpt-tokenizer are not bundled: they load from node_modules
  if (all.some((u) => u.includes('/node_modules/pino/'))) libs.add('pino');
  if (all.some((u) => u.includes('/node_modules/gpt-tokenizer/'))) libs.add('tokenizer');
  return libs;
}

describe('bundle', () => {
  it('proxy mode loads the relay and execa, and none of commander, ajv, the SDK or pino', () => {
    const libs = loadedLibraries(['--no-log', '--', process.execPath, fixture('cat.mjs')], '{"jsonrpc":"2.0","method":"x"}\n');
    expect([...libs].sort()).toEqual(['execa', 'relay']);
  });

  it('proxy mode with --debug loads pino as well', () => {
    const libs = loadedLibraries(['--no-log', '--debug-log', join(box.dir, 'd.log'), '--', process.execPath, fixture('cat.mjs')]);
    expect([...libs].sort()).toEqual(['execa', 'pino', 'relay']);
  });

  it('`tail --help` loads commander and not the relay', () => {
    const libs = loadedLibraries(['tail', '--help']);
    expect(libs.has('commander')).toBe(true);
    expect(libs.has('relay')).toBe(false);
    expect(libs.has('execa')).toBe(false);
  });

  it('`mcp` loads the SDK, and neither the relay nor execa', () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } } };
    const libs = loadedLibraries(['mcp', '--dir', box.dir], `${JSON.stringify(init)}\n`);
    expect(libs.has('sdk')).toBe(true);
    expect(libs.has('relay')).toBe(false);
    expect(libs.has('execa')).toBe(false);
  });

  it('the tokenizer loads for stats, not for tail or check without a token budget', () => {
    const log = join(ROOT, 'test', 'fixtures', 'logs', 'check-clean.jsonl');
    expect(loadedLibraries(['stats', log]).has('tokenizer')).toBe(true);
    expect(loadedLibraries(['tail', '-n', '5', log]).has('tokenizer')).toBe(false);
    expect(loadedLibraries(['check', log]).has('tokenizer')).toBe(false);
  });

  it('`--version` loads no library at all', () => {
    expect([...loadedLibraries(['--version'])]).toEqual([]);
  });

  it('every marker names code the bundle holds (pino: its package)', () => {
    const files = readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.js'));
    const source = files.map((f) => readFileSync(join(ROOT, 'dist', f), 'utf8')).join('\n');
    for (const [lib, marker] of Object.entries(MARKERS)) if (lib !== 'pino') expect(source).toContain(marker);
    expect(readFileSync(join(ROOT, 'node_modules', 'pino', 'lib', 'symbols.js'), 'utf8')).toContain("Symbol('pino.chindings')");
  });
});
