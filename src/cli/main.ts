/**
 * Entry point. Proxy mode is the hot path: it loads only what the relay needs, and subcommand code is
 * imported lazily by name, so a host that starts mcp-tap waits for nothing else.
 */
import { exitCodeFor } from './exit-codes.js';
import { TapError, UsageError } from '../errors.js';
import { warn } from './stderr.js';

/** Subcommands, each in src/cli/commands/<name>.ts exporting `define(program)`; loaded only when named. */
const SUBCOMMANDS = ['demo', 'tail', 'ls', 'export', 'stats', 'wrap', 'unwrap', 'doctor', 'check', 'baseline', 'diff', 'replay', 'mock', 'ui', 'http'];

type CommandModule = { define: (program: import('commander').Command) => void };

function loader(name: string): () => Promise<CommandModule> {
  return async () => {
    try {
      return (await import(`./commands/${name}.js`)) as CommandModule;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String((err as Error).message).includes(`commands/${name}.js`)) {
        throw new UsageError(`the ${name} subcommand is not available in this build`);
      }
      throw err;
    }
  };
}

const LOADERS = Object.fromEntries(SUBCOMMANDS.map((n) => [n, loader(n)]));

async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first !== undefined && Object.hasOwn(LOADERS, first)) {
    const { runSubcommand } = await import('./program.js');
    return runSubcommand(first, LOADERS[first]!, argv);
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
