/** Which server the demo drives: the official server-everything when it is installed, else the bundled one. */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEMO_SERVER } from '../package-paths.js';
import { UsageError } from '../errors.js';

export type ServerChoice = 'auto' | 'everything' | 'bundled';

export interface DemoServer {
  kind: 'everything' | 'bundled';
  /** How the narrative names it. */
  label: string;
  command: string;
  args: string[];
}

/** server-everything's stdio entry point, or null when the package is not installed. */
export function findServerEverything(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json');
    const entry = join(dirname(pkg), 'dist', 'index.js');
    return existsSync(entry) ? entry : null;
  } catch {
    return null;
  }
}

/** The server command line for `choice`; `everything` when it is not installed is a usage error. */
export function locateServer(choice: ServerChoice = 'auto'): DemoServer {
  if (choice !== 'bundled') {
    const entry = findServerEverything();
    if (entry) {
      return { kind: 'everything', label: 'server-everything (the official MCP reference server)', command: process.execPath, args: [entry, 'stdio'] };
    }
    if (choice === 'everything') throw new UsageError('@modelcontextprotocol/server-everything is not installed; use --server bundled');
  }
  return {
    kind: 'bundled',
    label: "mcp-tap's bundled demo server",
    command: process.execPath,
    args: [DEMO_SERVER],
  };
}
