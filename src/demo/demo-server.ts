/**
 * The server `mcp-tap demo` drives when @modelcontextprotocol/server-everything is not installed (it is
 * only a dev dependency): a few tools, one of them with progress notifications, and one resource.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { VERSION } from '../version.js';

export const DEMO_RESOURCE_URI = 'demo://mcp-tap/readme';

const README = `# mcp-tap demo resource

You are reading this through mcp-tap: every byte of this text travelled from the server to the client
unchanged, and the log recorded the request, the response and how long it took.
`;

/** The bundled demo server (not yet connected to a transport). */
export function createDemoServer(): McpServer {
  const server = new McpServer({ name: 'mcp-tap-demo-server', version: VERSION });

  server.registerTool(
    'echo',
    { title: 'Echo', description: 'Echoes back the input string', inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }),
  );

  server.registerTool(
    'get-sum',
    { title: 'Sum', description: 'Returns the sum of two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: `The sum of ${a} and ${b} is ${a + b}.` }] }),
  );

  server.registerTool(
    'slow-count',
    {
      title: 'Slow count',
      description: 'Counts to `count`, one step every `delayMs`, reporting progress',
      inputSchema: { count: z.number().int().min(1).max(100).default(4), delayMs: z.number().int().min(0).max(10_000).default(300) },
    },
    async ({ count, delayMs }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= count; i++) {
        await new Promise((r) => setTimeout(r, delayMs));
        if (token !== undefined) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: count, message: `step ${i} of ${count}` } });
        }
      }
      return { content: [{ type: 'text', text: `Counted to ${count}.` }] };
    },
  );

  server.registerResource(
    'readme',
    DEMO_RESOURCE_URI,
    { title: 'About this demo', description: 'A short text resource', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: README }] }),
  );

  return server;
}
