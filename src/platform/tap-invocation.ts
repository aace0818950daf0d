/**
 * How a command line starts mcp-tap itself: `mcp-tap …`, `node …/mcp-tap.js …`, `npx [-y] mcp-tap[@v] …`.
 * `wrap` uses it to tell entries it already wraps (and mcp-tap's own MCP server, which it never wraps);
 * proxy mode uses it so it does not log `mcp-tap mcp` into the directory that server reads. Pure.
 */
import { dirname, resolve } from 'node:path';

function programName(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  return base.replace(/\.(m?js|cjs|cmd|exe|ps1|bat)$/i, '').toLowerCase();
}

function isTapPackageSpec(arg: string): boolean {
  return /^mcp-tap(@[^/]*)?$/.test(arg);
}

/** Index in args where mcp-tap's own options start, when command+args start mcp-tap; else undefined. */
export function tapOptionsStart(command: string, args: readonly string[]): number | undefined {
  const prog = programName(command);
  if (prog === 'mcp-tap') return 0;
  if ((prog === 'node' || prog === 'nodejs') && args[0] !== undefined && programName(args[0]) === 'mcp-tap') return 1;
  if (prog === 'npx' || prog === 'bunx' || prog === 'pnpx') {
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a.startsWith('-')) continue;
      return isTapPackageSpec(a) ? i + 1 : undefined;
    }
  }
  return undefined;
}

/** The arguments of `mcp-tap mcp` when command+args run mcp-tap's MCP server; else undefined. */
export function mcpServerArgs(command: string, args: readonly string[]): string[] | undefined {
  const start = tapOptionsStart(command, args);
  // a subcommand is named first (src/cli/main.ts); `mcp-tap -q mcp` is proxy mode with a server named mcp
  return start !== undefined && args[start] === 'mcp' ? args.slice(start + 1) : undefined;
}

/** What `mcp-tap mcp <args>` reads: the one log of `--log`, or the directory of `--dir` (default: `defaultDir`). */
export function mcpServed(mcpArgs: readonly string[], defaultDir: string, cwd: string): { file: string } | { dir: string } {
  let dir: string | undefined;
  let file: string | undefined;
  for (let i = 0; i < mcpArgs.length; i++) {
    const a = mcpArgs[i]!;
    if (a === '--') break;
    for (const flag of ['--dir', '--log'] as const) {
      let value: string | undefined;
      if (a === flag) value = mcpArgs[++i];
      else if (a.startsWith(`${flag}=`)) value = a.slice(flag.length + 1);
      if (value === undefined || value === '') continue;
      if (flag === '--dir') dir = resolve(cwd, value);
      else file = resolve(cwd, value);
    }
  }
  if (file !== undefined) return { file };
  return { dir: dir ?? defaultDir };
}

/**
 * Whether the log at `logPath` is one the MCP server started by command+args reads: proxy mode then
 * would record the agent reading the log into the log it reads (each read adding what the next one sees).
 */
export function servesOwnLog(command: string, args: readonly string[], logPath: string, defaultDir: string, cwd: string): boolean {
  const mcpArgs = mcpServerArgs(command, args);
  if (mcpArgs === undefined) return false;
  const served = mcpServed(mcpArgs, defaultDir, cwd);
  const log = resolve(cwd, logPath);
  return 'file' in served ? served.file === log : resolve(served.dir) === dirname(log);
}
