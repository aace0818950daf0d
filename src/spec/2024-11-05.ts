/**
 * MCP 2024-11-05 (schema/2024-11-05/schema.ts): the first revision. Content is text, image or an
 * embedded resource; no audio, no tool annotations, no titles. Pure.
 */
import { errorObject, handshakeMethods, tables } from './handshake-methods.js';
import type { RevisionShapes } from './revision.js';

/** The shapes of 2024-11-05 (built on first use). */
export function shapes20241105(): RevisionShapes {
  return { revision: '2024-11-05', ...tables(handshakeMethods('2024-11-05')), error: { name: 'JSONRPCError', schema: errorObject() }, errorCodes: {} };
}
