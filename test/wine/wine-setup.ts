/**
 * vitest global setup of the Windows job: sets up .cache/wine (scripts/install-wine.mjs: node.exe with
 * npm, a Wine prefix, the npm cache), packs the npm-installed fixture server, and keeps one wineserver
 * (`wineserver -p`) for the whole run, ended at teardown. Under CI a missing Wine fails the run; locally
 * the tests are skipped with a warning that says why.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { underCi } from '../helpers/browser.js';
import { ROOT } from '../helpers/paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Why the Windows job cannot run here, or '' when it can. */
    wineMissing: string;
    /** The packed fixture server that npm installs on the Windows side. */
    echoTarball: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const wine = (await import(join(ROOT, 'scripts', 'install-wine.mjs'))) as {
    installWine: () => string | null;
    wineEnv: () => NodeJS.ProcessEnv;
  };
  const err = wine.installWine();
  if (err !== null && underCi(process.env)) throw new Error(`the Windows job cannot run under CI: ${err}`);
  if (err !== null) process.stderr.write(`warning: Windows (Wine) tests skipped: ${err}\n`);
  project.provide('wineMissing', err ?? '');
  const packs = mkdtempSync(join(tmpdir(), 'mcp-tap-wine-packs-'));
  const name = execFileSync('npm', ['pack', join(ROOT, 'test', 'wine', 'fixtures', 'tap-echo-server'), '--pack-destination', packs, '--loglevel=error'], { encoding: 'utf8' }).trim().split('\n').pop()!;
  project.provide('echoTarball', join(packs, name));
  if (err === null) spawnSync('wineserver', ['-p'], { env: wine.wineEnv(), stdio: 'ignore' });
  return () => {
    if (err === null) spawnSync('wineserver', ['-k'], { env: wine.wineEnv(), stdio: 'ignore' });
    rmSync(packs, { recursive: true, force: true });
  };
}
