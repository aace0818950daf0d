// The Windows-side test host: run by the Windows build of Node under Wine (test/wine/windows.test.ts),
// it starts the built mcp-tap as a Windows MCP host would (node.exe, three pipes) and writes what it saw
// to a JSON file, since a Linux pipe cannot be node.exe's stdio under Wine. One scenario per run:
//   node.exe win-host.mjs <job.json>   job: { scenario, dir, out, repo, node, everything }
// Paths in the job are Windows paths (Z:\… for the Linux side's files).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { dir, repo, node } = job;
const nodeDir = node.replace(/\\node\.exe$/i, '');
const CLI = join(repo, 'bin', 'mcp-tap.js');
const CAT = join(repo, 'test', 'fixtures', 'servers', 'cat.mjs');
const STUBBORN = join(repo, 'test', 'fixtures', 'servers', 'rel-stubborn.mjs');
const SYSTEM = 'C:\\windows\\system32;C:\\windows;C:\\windows\\system32\\wbem';
mkdirSync(join(dir, 'bin'), { recursive: true });

/** What mcp-tap and its servers see: a Windows user of our own, npm offline from the cache the Linux side filled. */
function env(extra = {}) {
  const base = {
    SystemRoot: 'C:\\windows',
    windir: 'C:\\windows',
    ComSpec: 'C:\\windows\\system32\\cmd.exe',
    PATHEXT: '.COM;.EXE;.BAT;.CMD',
    TEMP: join(dir, 'temp'),
    TMP: join(dir, 'temp'),
    USERPROFILE: join(dir, 'home'),
    APPDATA: join(dir, 'home', 'AppData', 'Roaming'),
    LOCALAPPDATA: join(dir, 'home', 'AppData', 'Local'),
    Path: `${nodeDir};${join(dir, 'bin')};${SYSTEM}`,
    npm_config_cache: job.npmCache,
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  for (const d of [base.TEMP, base.USERPROFILE, base.APPDATA, base.LOCALAPPDATA, join(dir, 'bin')]) mkdirSync(d, { recursive: true });
  return { ...base, ...extra };
}

/** Runs mcp-tap with `args`, writes `input` (then ends stdin unless told to wait), collects everything. */
function tap(args, { input = '', extraEnv = {}, cwd = dir, until, timeoutMs = 90_000, onStderr } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(node, [CLI, ...args], { cwd, env: env(extraEnv), stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const out = [];
    let stderr = '';
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      child.stdin.end();
    };
    child.stdout.on('data', (c) => {
      out.push(c);
      if (until && until(Buffer.concat(out).toString('utf8'))) end();
    });
    child.stderr.on('data', (c) => {
      stderr += c;
      onStderr?.(stderr, end);
    });
    child.stdin.on('error', () => {});
    if (input) child.stdin.write(input);
    if (!until && !onStderr) end();
    const timer = setTimeout(() => {
      child.kill();
      resolve({ code: 'timeout', ms: Date.now() - started, stdout: Buffer.concat(out).toString('base64'), stderr });
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ms: Date.now() - started, stdout: Buffer.concat(out).toString('base64'), stderr });
    });
  });
}

const INIT = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wine-host', version: '1.0.0' } } })}\n`;
const answered = (text) => text.split('\n').some((l) => l.startsWith('{') && l.includes('"id":1') && l.includes('"result"'));

/** Whether a pid is still a live process (process.kill(pid, 0) is OpenProcess on Windows). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Makes npm's cmd-shim runnable by Wine's cmd, which never runs what follows `goto #_undefined_#` (a Wine 8 quirk, not mcp-tap's). */
function patchShim(file) {
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/goto #_undefined_# 2>NUL \|\| title %COMSPEC% & /g, ''));
  return text.includes('#_undefined_#');
}

const scenarios = {
  /** mcp-tap starts node.exe directly; bytes both ways unchanged. */
  direct: () => tap(['--log', join(dir, 'direct.log'), '--', node, CAT], { input: job.payload }),

  /** A second session appended to an existing log: no warning about POSIX modes Windows does not have. */
  'log-again': async () => {
    const log = join(dir, 'again.log');
    await tap(['--log', log, '--', node, CAT], { input: job.payload });
    return tap(['--log', log, '--', node, CAT], { input: job.payload });
  },

  /** A `.cmd` shim found by bare name on PATH (PATHEXT), as most Windows servers are installed. */
  'cmd-shim': () => {
    writeFileSync(join(dir, 'bin', 'cat-server.cmd'), `@echo off\r\n"${node}" "${CAT}" %*\r\n`);
    return tap(['--log', join(dir, 'cmd.log'), '--', 'cat-server'], { input: job.payload });
  },

  /** A server installed with npm (its `.bin\*.cmd` shim made by npm's cmd-shim), run by that shim's path. */
  'npm-shim': async () => {
    const prefix = join(dir, 'srv');
    mkdirSync(prefix, { recursive: true });
    const npm = spawnSync(join(nodeDir, 'npm.cmd'), ['install', '--prefix', prefix, '--no-package-lock', job.tarball], { cwd: dir, env: env(), shell: true, encoding: 'utf8', windowsHide: true });
    const shim = join(prefix, 'node_modules', '.bin', 'tap-echo-server.cmd');
    if (!existsSync(shim)) return { code: 'npm-failed', npm: { status: npm.status, stdout: npm.stdout, stderr: npm.stderr } };
    const patched = patchShim(shim);
    const r = await tap(['--log', join(dir, 'npm.log'), '--', shim], { input: job.payload });
    return { ...r, patched };
  },

  /** `npx -y <package>` from the npm cache (offline), npx.cmd found by bare name. */
  npx: () => {
    const project = join(dir, 'project');
    mkdirSync(project, { recursive: true });
    // setup: npx installs the package into the cache's _npx folder once, shims and all; those shims are
    // patched for Wine's cmd (as in npm-shim) before mcp-tap runs npx for real
    spawnSync(join(nodeDir, 'npx.cmd'), ['-y', '--package', job.everything, '--', 'node', '-e', '0'], { cwd: project, env: env(), shell: true, windowsHide: true });
    const npxDir = join(job.npmCache, '_npx');
    for (const install of existsSync(npxDir) ? readdirSync(npxDir) : []) {
      const bin = join(npxDir, install, 'node_modules', '.bin');
      for (const f of existsSync(bin) ? readdirSync(bin) : []) if (f.endsWith('.cmd')) patchShim(join(bin, f));
    }
    return tap(['--log', join(dir, 'npx.log'), '--', 'npx', '-y', job.everything, 'stdio'], { input: INIT, until: answered, cwd: project, timeoutMs: 150_000 });
  },

  /**
   * A server that ignores stdin EOF, with a grandchild: taskkill /T fails under Wine; mcp-tap must still
   * end both and exit. The grace period (100 ms) is far shorter than taskkill and wmic take under Wine,
   * so mcp-tap stops waiting for the server before the fallback has listed the tree: the tree stop must
   * still be carried out before mcp-tap exits.
   */
  stubborn: async () => {
    const pidFile = join(dir, 'server.pid');
    const grandFile = join(dir, 'grandchild.pid');
    const r = await tap(['--grace', '100', '--log', join(dir, 'stubborn.log'), '--', node, STUBBORN], {
      extraEnv: { TAP_PID_FILE: pidFile, REL_GRANDCHILD_PID: grandFile },
      onStderr: (text, end) => text.includes('ready') && end(),
      timeoutMs: 30_000,
    });
    const server = Number(readFileSync(pidFile, 'utf8'));
    const grandchild = Number(readFileSync(grandFile, 'utf8'));
    const left = { server: alive(server), grandchild: alive(grandchild) };
    for (const pid of [server, grandchild]) if (alive(pid)) process.kill(pid);
    return { ...r, pids: { server, grandchild }, left };
  },

  /** A command that is nowhere: exit 127 and mcp-tap's own message, not cmd.exe's 9009. */
  missing: () => tap(['--log', join(dir, 'missing.log'), '--', 'no-such-server-31']),

  /** wrap and unwrap Claude Desktop's config under %APPDATA%, byte for byte back. */
  wrap: () => {
    const file = join(dir, 'home', 'AppData', 'Roaming', 'Claude', 'claude_desktop_config.json');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, job.config);
    const run = (args) => spawnSync(node, [CLI, ...args], { cwd: dir, env: env(), encoding: 'utf8', windowsHide: true });
    const wrap = run(['wrap', '--host', 'claude-desktop']);
    const wrapped = readFileSync(file, 'utf8');
    const unwrap = run(['unwrap', '--host', 'claude-desktop']);
    return { file, wrap: { code: wrap.status, stdout: wrap.stdout, stderr: wrap.stderr }, wrapped, unwrap: { code: unwrap.status, stdout: unwrap.stdout, stderr: unwrap.stderr }, restored: readFileSync(file, 'utf8') };
  },

  /** With no --log and no XDG_STATE_HOME, the log goes to %LOCALAPPDATA%\mcp-tap\Logs. */
  logdir: async () => {
    const r = await tap(['--name', 'logdir', '--', node, CAT], { input: job.payload });
    const file = join(dir, 'home', 'AppData', 'Local', 'mcp-tap', 'Logs', 'logdir.jsonrpc.log');
    return { ...r, file, log: existsSync(file) ? readFileSync(file, 'utf8') : null };
  },
};

const result = await scenarios[job.scenario]();
writeFileSync(job.out, JSON.stringify(result));
process.exit(0);
