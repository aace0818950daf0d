/**
 * MCP 2025-03-26 (schema/2025-03-26/schema.ts): adds audio content, tool annotations, the completions
 * capability and a progress `message` (in the shared blocks), and JSON-RPC batches (the analysis checks
 * those). No new methods. Pure.
 */
import { errorObject, handshakeMethods, tables } from './handshake-methods.js';
import type { RevisionShapes } from './revision.js';

/** The shapes of 2025-03-26 (built on first use). */
export function shapes20250326(): RevisionShapes {
  return { revision: '2025-03-26', ...tables(handshakeMethods('2025-03-26')), error: { name: 'JSONRPCError', schema: errorObject() }, errorCodes: {} };
}
