/**
 * A sandbox for one real host: a temp root with a home, a git work tree as the project (`git init`: some
 * hosts ask git where the work tree is and read project configs up to its root), a state dir for
 * mcp-tap's logs, and an environment with nothing of the real user's and every offline switch the
 * hosts document (no telemetry, no update checks, model endpoints on loopback). Shared by the tests in
 * test/e2e-hosts.
 */
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { readRecords } from './log.js';
import { CLI, EVERYTHING } from './paths.js';

const run = promisify(execFile);

/** What wrap writes as `command` (see docs/host-integration.md). */
export const LAUNCH = (() => {
  try {
    accessSync(CLI, constants.X_OK);
    return { command: CLI, prefix: [] as string[] };
  } catch {
    return { command: process.execPath, prefix: [CLI] };
  }
})();

/** The server every host test wraps: the reference server over stdio. */
export const SERVER = { command: process.execPath, args: [EVERYTHING, 'stdio'] };

/** Host and provider variables of the real user that must not leak in. */
const FOREIGN = /^(GEMINI_|GOOGLE_|CODEX_|OPENAI_|ANTHROPIC_|CLAUDE_|COPILOT_|GH_|GITHUB_|QWEN_|DASHSCOPE_|OPENCODE|KILO|XDG_CONFIG_HOME$|APPDATA$|MCP_TAP_LOG$)/;

export interface HostSandbox {
  root: string;
  home: string;
  project: string;
  state: string;
  env: NodeJS.ProcessEnv;
  /** Writes a file (creating its directory); returns its path. */
  write: (file: string, text: string) => string;
  /** Runs a command in the project with the sandbox's environment. */
  cli: (command: string, args: string[], opts?: { env?: NodeJS.ProcessEnv; timeout?: number; cwd?: string }) => Promise<{ stdout: string; stderr: string }>;
  /** mcp-tap wrap/unwrap/… through the built CLI (in the project, or in `cwd`). */
  tap: (args: string[], cwd?: string) => Promise<{ stdout: string; stderr: string }>;
  /** The clientInfo of each initialize request in the log of entry `name`. */
  clientInfos: (name: string) => Array<{ name?: string; version?: string }>;
  cleanup: () => void;
}

export function hostSandbox(prefix: string, extraEnv: NodeJS.ProcessEnv = {}): HostSandbox {
  const root = mkdtempSync(join(tmpdir(), `mcp-tap-${prefix}-`));
  const home = join(root, 'home');
  const project = join(root, 'project');
  const state = join(root, 'state');
  mkdirSync(project, { recursive: true });
  execFileSync('git', ['init', '-q', project], { stdio: 'ignore' });
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!FOREIGN.test(k)) env[k] = v;
  Object.assign(env, { HOME: home, USERPROFILE: home, XDG_STATE_HOME: state, NO_COLOR: '1', CI: '1' }, extraEnv);
  const write = (file: string, text: string) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  const cli: HostSandbox['cli'] = (command, args, opts = {}) => run(command, args, { cwd: opts.cwd ?? project, env: { ...env, ...opts.env }, timeout: opts.timeout ?? 150_000, maxBuffer: 16 * 1024 * 1024 });
  return {
    root,
    home,
    project,
    state,
    env,
    write,
    cli,
    tap: (args, cwd) => cli(process.execPath, [CLI, ...args], { cwd }),
    clientInfos: (name) =>
      readRecords(join(state, 'mcp-tap', `${name}.jsonrpc.log`))
        .filter((r) => r.from === 'client' && r.kind === 'request' && r.method === 'initialize')
        .map((r) => ((r.msg as { params?: { clientInfo?: { name?: string; version?: string } } } | undefined)?.params?.clientInfo ?? {})),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The command line a wrapped entry runs, as a host prints it (program and arguments joined by spaces). */
export function wrappedLine(name: string): string {
  return [LAUNCH.command, ...LAUNCH.prefix, '--name', name, '--', SERVER.command, ...SERVER.args].join(' ');
}
