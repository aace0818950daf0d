/**
 * `mcp-tap mcp`'s server connected to the official SDK client in memory (InMemoryTransport): tools and
 * resources answered by the real server code, every answer kept as text so a test can search all of them.
 * The client validates each structuredContent against its tool's outputSchema, as hosts do.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_TOKENS } from '../../src/mcp/budget.js';
import { LogSource, type Served } from '../../src/mcp/log-source.js';
import { Reader } from '../../src/mcp/reader.js';
import { createMcpTapServer } from '../../src/mcp/server.js';
import type { RedactOptions } from '../../src/transcript/redact.js';

export interface MemoryClient {
  client: Client;
  /** Calls a tool; the answer is kept in `seen`. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Reads a resource; the answer is kept in `seen`. */
  read(uri: string): Promise<ReadResourceResult>;
  /** Every answer so far, as JSON text. */
  seen: string[];
  close(): Promise<void>;
}

export async function memoryClient(served: Served, opts: { maxTokens?: number; redact?: RedactOptions } = {}): Promise<MemoryClient> {
  const reader = new Reader(new LogSource(served), opts.redact ?? {});
  const server = createMcpTapServer({ reader, maxTokens: opts.maxTokens ?? DEFAULT_MAX_TOKENS });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'mcp-tap-test', version: '1.0.0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  // the client validates structuredContent only against the schemas it has listed
  await client.listTools();
  const seen: string[] = [];
  return {
    client,
    seen,
    async call(name, args = {}) {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      seen.push(JSON.stringify(r));
      return r;
    },
    async read(uri) {
      const r = await client.readResource({ uri });
      seen.push(JSON.stringify(r));
      return r;
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The structured content of a successful tool result (fails the test on an error result). */
export function ok<T = Record<string, unknown>>(r: CallToolResult): T {
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`);
  return r.structuredContent as T;
}

/** The text of an error result (fails the test on a success). */
export function errorText(r: CallToolResult): string {
  if (!r.isError) throw new Error(`expected a tool error, got ${JSON.stringify(r.structuredContent).slice(0, 300)}`);
  return (r.content as Array<{ text: string }>).map((c) => c.text).join('\n');
}
