/**
 * vitest global setup of the real-host tests: installs the hosts of test/hosts/package.json into
 * .cache/hosts when they are missing (scripts/install-hosts.mjs, cached). Under CI a failed install fails
 * the run; locally the tests are skipped with a warning that says why.
 */
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { underCi } from './browser.js';
import { ROOT } from './paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Why the real hosts cannot run here, or '' when they are installed. */
    hostsMissing: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const { installHosts } = (await import(join(ROOT, 'scripts', 'install-hosts.mjs'))) as { installHosts: () => string | null };
  const err = installHosts();
  if (err !== null && underCi(process.env)) throw new Error(`the real hosts could not be installed under CI: ${err}`);
  if (err !== null) process.stderr.write(`warning: real-host tests skipped: ${err}\n`);
  project.provide('hostsMissing', err ?? '');
}
