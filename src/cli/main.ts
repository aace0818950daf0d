/**
 * Entry point. Proxy mode is the hot path: it loads only what the relay needs, and subcommand code is
 * imported lazily by name, so a host that starts mcp-tap waits for nothing else.
 */
import { exitCodeFor } from './exit-codes.js';
import { TapError } from '../errors.js';
import { warn } from './stderr.js';
import { VERSION } from '../version.js';

type CommandModule = { define: (program: import('commander').Command) => void };

/**
 * Subcommands, each in src/cli/commands/<name>.ts exporting `define(program)`, loaded only when named.
 * Written out one import per entry (no template string) so the bundler makes each its own chunk and the
 * type checker sees every module. Adding a subcommand is one line here.
 */
const LOADERS: Record<string, () => Promise<CommandModule>> = {
  demo: () => import('./commands/demo.js'),
  tail: () => import('./commands/tail.js'),
  ls: () => import('./commands/ls.js'),
  export: () => import('./commands/export.js'),
  stats: () => import('./commands/stats.js'),
  wrap: () => import('./commands/wrap.js'),
  unwrap: () => import('./commands/unwrap.js'),
  doctor: () => import('./commands/doctor.js'),
  check: () => import('./commands/check.js'),
  baseline: () => import('./commands/baseline.js'),
  diff: () => import('./commands/diff.js'),
  replay: () => import('./commands/replay.js'),
  mock: () => import('./commands/mock.js'),
  ui: () => import('./commands/ui.js'),
  http: () => import('./commands/http.js'),
  audit: () => import('./commands/audit.js'),
  mcp: () => import('./commands/mcp.js'),
};

const SUBCOMMANDS = Object.keys(LOADERS);

async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first !== undefined && Object.hasOwn(LOADERS, first)) {
    const { runSubcommand } = await import('./program.js');
    return runSubcommand(first, LOADERS[first]!, argv);
  }
  // answered here, so a host probing the version does not load the relay
  if (first === '--version' || first === '-V') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const { printHelp } = await import('./program.js');
    return printHelp(LOADERS, argv);
  }
  const { runProxyCommand } = await import('./commands/run.js');
  return runProxyCommand(argv, SUBCOMMANDS);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof TapError) warn(err.message);
    else warn(`internal error: ${err instanceof Error ? err.message : String(err)} (please report this)`);
    if (process.env.MCP_TAP_DEBUG && err instanceof Error) process.stderr.write(`${err.stack ?? ''}\n`);
    process.exitCode = exitCodeFor(err);
  },
);
