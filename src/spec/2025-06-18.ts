/**
 * MCP 2025-06-18 (schema/2025-06-18/schema.ts): adds elicitation (`elicitation/create`), resource links,
 * `structuredContent` and `outputSchema`, titles, `_meta` on definitions and completion context. Pure.
 */
import { errorObject, handshakeMethods, request, tables } from './handshake-methods.js';
import type { RevisionShapes } from './revision.js';
import { baseShapes } from './shapes-base.js';
import { featureShapes } from './shapes-features.js';

/** The shapes of 2025-06-18 (built on first use). */
export function shapes20250618(): RevisionShapes {
  const m = handshakeMethods('2025-06-18');
  const f = featureShapes('2025-06-18');
  m.requests['elicitation/create'] = () => request('ElicitRequest', f.elicitParams, 'ElicitResult', baseShapes('2025-06-18').result(f.elicitResult), 'client/elicitation');
  return { revision: '2025-06-18', ...tables(m), error: { name: 'JSONRPCError', schema: errorObject() }, errorCodes: {} };
}
