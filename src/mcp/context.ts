/** What every tool and resource handler of `mcp-tap mcp` is given: the reader (redaction inside) and the budget. */
import type { Reader } from './reader.js';

export interface McpContext {
  reader: Reader;
  /** Token budget of one answer (src/mcp/budget.ts). */
  maxTokens: number;
}

/** An epoch-ms time as ISO 8601, or undefined. */
export function isoTime(ms: number | undefined): string | undefined {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}
