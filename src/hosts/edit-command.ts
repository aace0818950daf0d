/** What `mcp-tap wrap` and `mcp-tap unwrap` do, with the process edges (files, output, launcher) injected. */
import { InputError } from '../errors.js';
import { readBackupText, writeConfigText } from './config-io.js';
import { discoverConfigs } from './discover.js';
import { planUnwrap, planWrap, type EntryResult, type FilePlan } from './plan.js';
import type { HostEnv, Launcher } from './types.js';
import { unifiedDiff } from './unified-diff.js';

export interface EditOptions {
  host?: string;
  config?: string;
  dryRun?: boolean;
}

export interface EditDeps {
  hostEnv: HostEnv;
  out: (line: string) => void;
  /** Needed for wrap only. */
  launcher?: { launcher: Launcher; note?: string };
}

function describeLocation(r: EntryResult): string {
  const l = r.location;
  const hosts = [l.host, ...(l.readBy ?? [])].join(', ');
  if (l.scope === 'local') return `${hosts}, local to ${String(l.serversPath[1])}`;
  if (l.host === 'custom') return 'config';
  return `${hosts}, ${l.scope}`;
}

function resultLine(r: EntryResult): string {
  const verb = r.action.padEnd(9);
  return `  ${verb} ${r.name}${r.reason ? ` — ${r.reason}` : ''}  (${describeLocation(r)})`;
}

/** Runs wrap or unwrap over the discovered configs; returns the per-entry results. */
export async function runEdit(mode: 'wrap' | 'unwrap', names: string[], opts: EditOptions, deps: EditDeps): Promise<EntryResult[]> {
  const { found, looked } = await discoverConfigs(opts, deps.hostEnv);
  if (found.length === 0) {
    throw new InputError(`no MCP configuration found; looked at: ${looked.join(', ')} (name one with --config <file>)`);
  }
  const nameSet = names.length ? new Set(names) : undefined;
  const plans: FilePlan[] = [];
  for (const cf of found) {
    if (mode === 'wrap') {
      if (!deps.launcher) throw new Error('runEdit: wrap needs a launcher');
      plans.push(planWrap(cf.text, cf.file, cf.locations, { names: nameSet, launcher: deps.launcher.launcher }));
    } else {
      plans.push(planUnwrap(cf.text, cf.file, cf.locations, { names: nameSet, backupText: await readBackupText(cf.file) }));
    }
  }
  const all = plans.flatMap((p) => p.results);
  const missing = names.filter((n) => !all.some((r) => r.name === n));
  if (missing.length) {
    throw new InputError(`no server named ${missing.map((n) => `"${n}"`).join(', ')} in ${found.map((f) => f.file).join(', ')}`);
  }
  if (mode === 'wrap' && deps.launcher?.note) deps.out(`note: ${deps.launcher.note}`);
  let changedFiles = 0;
  for (const plan of plans) {
    if (plan.results.length === 0) continue;
    deps.out(plan.file);
    for (const r of plan.results) deps.out(resultLine(r));
    if (plan.newText === plan.text) continue;
    changedFiles++;
    if (opts.dryRun) {
      for (const line of unifiedDiff(plan.text, plan.newText, plan.file).trimEnd().split('\n')) deps.out(`  ${line}`);
      continue;
    }
    const { backup } = await writeConfigText(plan.file, plan.text, plan.newText);
    if (backup) deps.out(`  backup    ${backup}`);
  }
  const done = all.filter((r) => r.action !== 'skipped').length;
  const verb = mode === 'wrap' ? 'wrapped' : 'unwrapped';
  if (opts.dryRun) {
    deps.out(`dry run: ${done} server${done === 1 ? '' : 's'} would be ${verb}; nothing written`);
  } else if (done === 0) {
    deps.out(`nothing to ${mode}: no file changed`);
  } else {
    deps.out(`${verb} ${done} server${done === 1 ? '' : 's'} in ${changedFiles} file${changedFiles === 1 ? '' : 's'}; restart the host to pick up the change`);
  }
  return all;
}
