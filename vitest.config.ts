import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * End-to-end files first, then vitest's own order (the slowest of the last run first; on a fresh clone,
 * the largest file first). The end-to-end files are the long ones: started early they overlap, and the
 * short unit files fill the workers at the end instead of one long file running on alone.
 */
class EndToEndFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const e2e = (f: TestSpecification) => /[\\/]test[\\/]e2e[\\/]/.test(f.moduleId);
    return [...sorted.filter(e2e), ...sorted.filter((f) => !e2e(f))];
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // the real hosts and the Windows job have their own steps (npm run test:hosts, npm run test:wine)
    exclude: [...configDefaults.exclude, 'test/e2e-hosts/**', 'test/wine/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // a worker per core: vitest's default leaves one core free (one worker on two cores), but most files
    // wait on the processes they start, so a second worker roughly halves the run on two cores
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: EndToEndFirst },
    globalSetup: ['./test/helpers/build-pages.ts'],
  },
});
