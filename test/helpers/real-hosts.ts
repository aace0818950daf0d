/** Where the real hosts of test/hosts/package.json are (installed by test/helpers/real-hosts-setup.ts). */
import { join } from 'node:path';
import { inject } from 'vitest';
import { ROOT } from './paths.js';

/** The host CLIs' directory of bins. */
export const HOSTS_BIN = join(ROOT, '.cache', 'hosts', 'node_modules', '.bin');

/** A host's CLI by its bin name (claude, codex, copilot, gemini, opencode, qwen). */
export const hostBin = (name: string): string => join(HOSTS_BIN, name);

/** True when the hosts are missing (only outside CI: under CI the global setup has failed the run). */
export const hostsMissing = (): boolean => inject('hostsMissing') !== '';
