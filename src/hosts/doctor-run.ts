/**
 * `mcp-tap doctor`: for each configured stdio server, find its command as the host would, start it
 * through mcp-tap with a real initialize and tools/list, and say in plain words what is wrong.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { discoverConfigs } from './discover.js';
import type { ProbeInput, ProbeResult } from './doctor-probe.js';
import { printable, verdictFor, type CheckedServer, type Verdict } from './doctor-verdict.js';
import { tapName } from './entry-kind.js';
import { expandVariables, type ExpandContext } from './expand-vars.js';
import { parseConfig } from './parse-config.js';
import { entriesIn, type FoundEntry } from './plan.js';
import { pathValue, resolveCommand, type FsProbe } from './resolve-command.js';
import type { HostEnv } from './types.js';

export interface DoctorOptions {
  host?: string;
  config?: string;
  timeoutMs: number;
  keepLogs?: boolean;
  concurrency?: number;
}

export interface DoctorDeps {
  hostEnv: HostEnv;
  out: (line: string) => void;
  /** How to start mcp-tap itself. */
  tap: { command: string; args: string[] };
  probe: (input: ProbeInput) => Promise<ProbeResult>;
  fs?: FsProbe;
}

interface Planned {
  entry: FoundEntry;
  file: string;
  check: CheckedServer;
  resolvedPath?: string;
  pathUsed: string;
  note?: string;
  start?: Omit<ProbeInput, 'logFile' | 'timeoutMs' | 'tap'>;
}

function where(e: FoundEntry, file: string): string {
  const l = e.location;
  const hosts = [l.host, ...(l.readBy ?? [])].join(', ');
  if (l.scope === 'local') return `${hosts}, local to ${String(l.serversPath[1])}: ${file}`;
  if (l.host === 'custom') return file;
  return `${hosts}, ${l.scope}: ${file}`;
}

function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  }
  return out;
}

async function plan(e: FoundEntry, file: string, h: HostEnv, opts: DoctorOptions, fsProbe: FsProbe | undefined): Promise<Planned> {
  const base = { command: '', unresolvedVars: [] as string[], timeoutMs: opts.timeoutMs };
  const pathUsed = pathValue(h.env, h.platform);
  const k = e.kind;
  if (k.kind === 'remote') return { entry: e, file, pathUsed, check: { ...base, skipped: k.reason } };
  if (k.kind === 'invalid') return { entry: e, file, pathUsed, check: { ...base, invalid: k.reason } };
  if (k.kind === 'wrapped' && !k.original) {
    return { entry: e, file, pathUsed, check: { ...base, invalid: 'it runs through mcp-tap, but the server command cannot be told from its arguments' } };
  }
  // the server's environment: `env`; opencode's and Kilo's `environment`; Goose's `envs`
  const raw = e.value as { env?: unknown; environment?: unknown; envs?: unknown; cwd?: unknown };
  const cmdline = k.kind === 'wrapped' ? k.original! : { command: k.command, args: k.args ?? [] };
  const ctx: ExpandContext = {
    host: e.location.host,
    project: h.cwd,
    home: h.home,
    env: h.env,
    pathSeparator: h.platform === 'win32' ? '\\' : '/',
  };
  const unresolved: string[] = [];
  const expand = (s: string): string => {
    const x = expandVariables(s, ctx);
    unresolved.push(...x.unresolved.filter((u) => !unresolved.includes(u)));
    return x.value;
  };
  const command = expand(cmdline.command);
  const args = cmdline.args.map(expand);
  const entryEnv = Object.fromEntries(Object.entries(stringRecord(raw.env ?? raw.environment ?? raw.envs)).map(([key, v]) => [key, expand(v)]));
  const env: Record<string, string> = { ...stringRecord(h.env), ...entryEnv };
  const cwd = typeof raw.cwd === 'string' && raw.cwd ? resolve(h.cwd, expand(raw.cwd)) : undefined;
  const path = pathValue(env, h.platform);
  const resolution = await resolveCommand(command, { cwd: cwd ?? h.cwd, path, platform: h.platform, pathext: env.PATHEXT }, fsProbe);
  const check: CheckedServer = { ...base, command, unresolvedVars: unresolved, resolution };
  const p: Planned = { entry: e, file, check, pathUsed: path };
  if (k.kind === 'wrapped') p.note = 'runs through mcp-tap already; checking the server it starts';
  if (resolution.status === 'found') {
    p.resolvedPath = resolution.path;
    p.start = { name: tapName(e.name), command, args, env, cwd };
  }
  return p;
}

function render(p: Planned, v: Verdict, h: HostEnv, logFile: string | undefined): string[] {
  const lines = [`${printable(p.entry.name)}  (${where(p.entry, p.file)})`];
  if (p.note) lines.push(`  note     ${p.note}`);
  if (p.check.command) {
    lines.push(`  command  ${printable(p.check.command)}${p.resolvedPath && p.resolvedPath !== p.check.command ? ` → ${printable(p.resolvedPath)}` : ''}`);
  }
  if (p.check.command && p.pathUsed !== pathValue(h.env, h.platform)) lines.push(`  PATH     ${printable(p.pathUsed, 4000)}  (set in the entry's env)`);
  lines.push(`  ${v.status === 'ok' ? '' : v.status === 'skipped' ? '' : 'PROBLEM  '}${v.headline}`);
  for (const d of v.details) lines.push(`    ${d}`);
  if (logFile) lines.push(`  log      ${logFile}`);
  return lines;
}

/** Runs doctor over the discovered configs; returns true when every checked server is healthy. */
export async function runDoctor(names: string[], opts: DoctorOptions, deps: DoctorDeps): Promise<boolean> {
  const h = deps.hostEnv;
  const { found, looked } = await discoverConfigs(opts, h);
  if (found.length === 0) throw new InputError(`no MCP configuration found; looked at: ${looked.join(', ')} (name one with --config <file>)`);
  const entries: { e: FoundEntry; file: string }[] = [];
  for (const cf of found) {
    for (const e of entriesIn(parseConfig(cf.text, cf.file), cf.locations)) {
      if (names.length === 0 || names.includes(e.name)) entries.push({ e, file: cf.file });
    }
  }
  const missing = names.filter((n) => !entries.some((x) => x.e.name === n));
  if (missing.length) throw new InputError(`no server named ${missing.map((n) => `"${n}"`).join(', ')} in ${found.map((f) => f.file).join(', ')}`);
  if (entries.length === 0) {
    deps.out(`no servers configured in ${found.map((f) => f.file).join(', ')}`);
    return true;
  }
  deps.out(`PATH used to find commands (what mcp-tap doctor inherited; a host started from a desktop launcher may see a shorter one):`);
  deps.out(`  ${printable(pathValue(h.env, h.platform), 4000)}`);
  deps.out('');
  const logDir = await mkdtemp(join(tmpdir(), 'mcp-tap-doctor-'));
  const planned = await Promise.all(entries.map(({ e, file }) => plan(e, file, h, opts, deps.fs)));
  const results: Promise<{ verdict: Verdict; logFile?: string }>[] = [];
  const limit = Math.max(1, opts.concurrency ?? 4);
  let running = 0;
  const waiting: (() => void)[] = [];
  const slot = async (): Promise<() => void> => {
    if (running >= limit) await new Promise<void>((r) => waiting.push(r));
    running++;
    return () => {
      running--;
      waiting.shift()?.();
    };
  };
  planned.forEach((p, i) => {
    results.push(
      (async () => {
        if (!p.start) return { verdict: verdictFor(p.check) };
        const release = await slot();
        try {
          const logFile = join(logDir, `${String(i + 1).padStart(2, '0')}-${p.start.name}.jsonrpc.log`);
          const probe = await deps.probe({ ...p.start, logFile, timeoutMs: opts.timeoutMs, tap: deps.tap });
          return { verdict: verdictFor({ ...p.check, probe }), logFile };
        } finally {
          release();
        }
      })(),
    );
  });
  let ok = 0;
  let bad = 0;
  let skipped = 0;
  try {
    for (let i = 0; i < planned.length; i++) {
      const { verdict, logFile } = await results[i]!;
      if (verdict.status === 'ok') ok++;
      else if (verdict.status === 'skipped') skipped++;
      else bad++;
      for (const line of render(planned[i]!, verdict, h, opts.keepLogs ? logFile : undefined)) deps.out(line);
      deps.out('');
    }
  } finally {
    if (!opts.keepLogs) await rm(logDir, { recursive: true, force: true }).catch(() => {});
  }
  const parts = [`${ok} healthy`, `${bad} with problems`];
  if (skipped) parts.push(`${skipped} skipped (not stdio)`);
  deps.out(parts.join(', '));
  return bad === 0;
}
