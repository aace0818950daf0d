/**
 * The tools only a few suites need (test/tools/package.json: an OTLP receiver, the OpenTelemetry semantic
 * conventions, wabt, the MCP conformance suite), kept out of the project's node_modules and installed
 * into .cache/test-tools by scripts/install-test-tools.mjs: by .ci/run, and here by the first test file
 * that needs them when they are missing (cached after that). Under CI a failed install fails those files;
 * locally they are skipped with a warning that says why.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { underCi } from './browser.js';
import { ROOT } from './paths.js';

/** Where the tools are installed. */
export const TOOLS_DIR = join(ROOT, '.cache', 'test-tools');

/** require() as from .cache/test-tools (the tools' own node_modules). */
export const toolRequire = createRequire(join(TOOLS_DIR, 'package.json'));

/** Installs the tools when they are missing; '' when they are there, else why they are not. */
export async function installTestTools(): Promise<string> {
  const script = (await import(join(ROOT, 'scripts', 'install-test-tools.mjs'))) as { installTestTools: () => string | null };
  return script.installTestTools() ?? '';
}

/** run: the tools are there (installed now if need be); fail: they are not, under CI; skip: they are not, locally. */
export function toolsMode(missing: string, env: NodeJS.ProcessEnv = process.env): 'run' | 'fail' | 'skip' {
  if (missing === '') return 'run';
  return underCi(env) ? 'fail' : 'skip';
}

/**
 * For a test file that needs the tools: true when they are there. Otherwise the file gets one failing
 * test under CI, or a warning locally, and its own suites must not run (describe.runIf).
 */
export async function withTestTools(file: string): Promise<boolean> {
  const missing = await installTestTools();
  const mode = toolsMode(missing);
  if (mode === 'fail') {
    describe(file, () => {
      it('needs the test tools of test/tools/package.json', () => {
        throw new Error(`the test tools could not be installed into ${TOOLS_DIR} under CI: ${missing}`);
      });
    });
  } else if (mode === 'skip') {
    console.warn(`${file}: SKIPPED — the test tools are missing (${missing}; node scripts/install-test-tools.mjs); under CI this is a failure`);
  }
  return mode === 'run';
}
