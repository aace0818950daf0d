/** vitest global setup: regenerates src/generated/page-bundles.ts (the bundled page scripts) so tests of src run from a fresh clone. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './paths.js';

export default async function setup(): Promise<void> {
  const { generatedModule } = (await import(join(ROOT, 'scripts', 'build-page.mjs'))) as { generatedModule: () => Promise<string> };
  const file = join(ROOT, 'src', 'generated', 'page-bundles.ts');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, await generatedModule());
}
