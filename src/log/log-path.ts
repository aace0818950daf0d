import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { logDirFor } from '../platform/log-dir.js';

/** Where logs go when neither --log nor MCP_TAP_LOG says otherwise (src/platform/log-dir.ts decides per OS). */
export function defaultLogDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  return logDirFor(platform, env, homedir());
}

const LAUNCHERS = new Set([
  'node', 'nodejs', 'npx', 'bunx', 'bun', 'deno', 'uvx', 'uv', 'pipx', 'python', 'python3', 'py', 'ruby',
  'java', 'dotnet', 'go', 'cargo', 'npm', 'pnpm', 'yarn', 'tsx', 'ts-node', 'env', 'sh', 'bash', 'docker', 'podman',
]);
const GENERIC = new Set(['index', 'main', 'server', 'cli', 'run', 'start', 'app', 'mcp', 'stdio', 'bin']);
const CONTAINER_DIRS = new Set(['dist', 'build', 'lib', 'src', 'bin', 'out', 'cjs', 'esm', 'node_modules']);

function stripExt(name: string): string {
  return name.replace(/\.(m?[jt]s|cjs|py|rb|exe|cmd|bat|jar)$/i, '');
}

/** Container runners' options that take a value as the next argument (`docker run -e X image`). */
const CONTAINER_VALUE_OPTS = new Set([
  '-e', '--env', '--env-file', '-v', '--volume', '--mount', '--name', '-p', '--publish', '--network', '--net', '-w', '--workdir',
  '-u', '--user', '--entrypoint', '-l', '--label', '--platform', '--pull', '-h', '--hostname', '--add-host', '--cpus', '-m',
  '--memory', '--device', '--cap-add', '--cap-drop', '--security-opt', '--tmpfs', '--ulimit', '--runtime', '--gpus',
]);

/** `docker run [opts] registry/org/image:tag args…` → `image`; null when no image is found. */
function containerImage(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === 'run' || a === 'container' || a === 'create') continue;
    if (CONTAINER_VALUE_OPTS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    const last = a.slice(a.lastIndexOf('/') + 1);
    return last.replace(/@sha256:.*$/, '').replace(/:[^:]*$/, '') || null;
  }
  return null;
}

/** A file-name-safe server name from the command line: `npx -y @scope/server-everything` → `server-everything`. */
export function deriveServerName(command: string, args: readonly string[]): string {
  let target = command;
  const base = stripExt(basename(command)).toLowerCase();
  if (base === 'docker' || base === 'podman') {
    target = containerImage(args) ?? base;
  } else if (base === 'env') {
    // `env [-i] [NAME=value …] command args…`: name the command env runs
    const at = args.findIndex((a) => !a.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a));
    if (at >= 0) return deriveServerName(args[at]!, args.slice(at + 1));
  } else if (LAUNCHERS.has(base) || /^python\d/.test(base)) {
    const skipValue = new Set(['-m', '--from', '--package', '-r', '--require', '--import', '--loader', '--with', '--directory', '--project', '--python']);
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === 'run' || a === 'exec' || a === 'x' || a === 'dlx' || a === 'tool' || a === '--') continue;
      if (skipValue.has(a) && args[i + 1]) {
        if (a === '-m') {
          target = args[i + 1]!;
          break;
        }
        i++;
        continue;
      }
      if (a === '-e' || a === '--eval' || a === '-p' || a === '--print' || a === '-c') {
        target = `${base}-eval`;
        break;
      }
      if (a.startsWith('-')) continue;
      target = a;
      break;
    }
  }
  // strip a version suffix (pkg@1.2.3, pkg==1.2) and a scope (@scope/pkg)
  target = target.replace(/(.)@[^/@]*$/, '$1').replace(/(.)(?:[=<>~!]=|[<>]).*$/, '$1');
  let name = stripExt(basename(target));
  let dir = dirname(target);
  while (GENERIC.has(name.toLowerCase()) && dir !== '.' && dir !== '/' && dir !== '') {
    const parent = basename(dir);
    dir = dirname(dir);
    if (CONTAINER_DIRS.has(parent.toLowerCase())) continue;
    name = parent;
  }
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 80);
  return safe || 'server';
}

/** The log file path: --log, then MCP_TAP_LOG, then <default dir>/<name>.jsonrpc.log. */
export function resolveLogPath(opts: { log?: string; name: string }, env: NodeJS.ProcessEnv = process.env): string {
  if (opts.log) return resolve(opts.log);
  if (env.MCP_TAP_LOG) return resolve(env.MCP_TAP_LOG);
  return join(defaultLogDir(env), `${opts.name}.jsonrpc.log`);
}
