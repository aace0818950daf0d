/**
 * A real session for the browser tests: the official SDK client against server-everything through
 * mcp-tap, with every outcome the waterfall draws.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, EVERYTHING, ROOT } from './paths.js';
import { waitFor } from './wait.js';

/**
 * The SDK client against server-everything through mcp-tap: lists, tool calls side by side (a long
 * operation with progress, a sampling request the client answers), an isError result, an error answer,
 * a cancelled call, and a call still running when the client leaves.
 */
export async function recordEverythingSession(log: string): Promise<void> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, '--log', log, '--', process.execPath, EVERYTHING, 'stdio'], cwd: ROOT, stderr: 'pipe' });
  const client = new Client({ name: 'report-demo', version: '1.0.0' }, { capabilities: { sampling: {} } });
  // the host takes a moment to answer the server's sampling request, as a person or a model would
  client.setRequestHandler(CreateMessageRequestSchema, async () => {
    await new Promise((r) => setTimeout(r, 100));
    return { model: 'canned-model', role: 'assistant', content: { type: 'text', text: 'Hello from the host' } };
  });
  await client.connect(transport);
  await client.listTools();
  await client.listResources();
  await client.listPrompts();
  await client.callTool({ name: 'echo', arguments: { message: 'hello through the tap' } });
  let progress = 0;
  const long = client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 1.2, steps: 4 } }, undefined, { onprogress: () => progress++ });
  const side = Promise.all([
    client.callTool({ name: 'get-sum', arguments: { a: 19, b: 23 } }),
    client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'Say hello', maxTokens: 20 } }),
    client.callTool({ name: 'get-tiny-image', arguments: {} }),
  ]);
  await client.callTool({ name: 'get-sum', arguments: { a: 'two', b: 3 } }).catch(() => undefined);
  await client.readResource({ uri: 'demo://resource/does-not-exist' }).catch(() => undefined);
  await client.callTool({ name: 'no-such-tool', arguments: {} }).catch(() => undefined);
  const ac = new AbortController();
  const cancelled = client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps: 2 } }, undefined, { signal: ac.signal }).catch(() => undefined);
  await waitFor(() => progress >= 1, 10_000, 'the first progress notification');
  ac.abort('user gave up');
  await Promise.all([side, long, cancelled]);
  await client.ping();
  // still running when the client leaves: unanswered at the end of the session
  const running = client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 5, steps: 5 } }).catch(() => undefined);
  await waitFor(() => readFileSync(log, 'utf8').includes('"duration":5'), 10_000, 'the last call in the log');
  await client.close();
  await running;
  await waitFor(() => readFileSync(log, 'utf8').includes('"event":"end"'), 15_000, 'the end record of the session');
}
