import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** mcp-tap's version, read from package.json so there is one source of truth. */
export const VERSION: string = (require('../package.json') as { version: string }).version;
