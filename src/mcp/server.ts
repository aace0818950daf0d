/**
 * `mcp-tap mcp` as an McpServer (official SDK): seven read-only tools and the sessions as resources,
 * on a Reader (src/mcp/reader.ts, where everything is redacted) and the answer budget
 * (src/mcp/budget.ts). Every tool is registered through `readOnlyTool`, the one place that sets the
 * annotations, turns failures into tool errors and redacts their text. Not connected to a transport here.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ReadResourceRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { TapError } from '../errors.js';
import { VERSION } from '../version.js';
import type { McpContext } from './context.js';
import { listSessionResources, readSessionResource, sessionTemplates } from './resources.js';
import * as S from './schemas.js';
import { checkSessionTool, diffSessionsTool } from './tools-check.js';
import { getMessageTool, searchMessagesTool } from './tools-messages.js';
import { getSessionTool, listSessionsTool, sessionStatsTool } from './tools-sessions.js';

/** What every tool declares: it reads the logs on this machine and changes nothing. */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const INSTRUCTIONS =
  'mcp-tap records the JSON-RPC traffic between MCP hosts and MCP servers. These tools read those recordings: ' +
  'list_sessions first, then search_messages for calls by text, method or errors, get_message for one record, ' +
  'check_session for the verdict. Values that look like keys or passwords are redacted; long answers go on with nextCursor.';

type Shape = z.ZodObject;

/** An error result with a text an agent can act on (redacted: it may quote a log line). */
function failure(ctx: McpContext, err: unknown, warn: (m: string) => void): CallToolResult {
  if (err instanceof TapError) return { content: [{ type: 'text', text: ctx.reader.text(err.message) }], isError: true };
  const text = ctx.reader.text(`internal error: ${err instanceof Error ? err.message : String(err)} (please report this)`);
  warn(text);
  return { content: [{ type: 'text', text }], isError: true };
}

/** The server, its tools and resources registered; `warn` is told of internal errors (stderr). */
export function createMcpTapServer(ctx: McpContext, warn: (m: string) => void = () => {}): McpServer {
  const mcp = new McpServer({ name: 'mcp-tap', title: 'mcp-tap recordings', version: VERSION }, { capabilities: { resources: { listChanged: true } }, instructions: INSTRUCTIONS });

  const readOnlyTool = <I extends Shape, O extends Shape>(
    name: string,
    def: { title: string; description: string; input: I; output: O },
    run: (args: z.infer<I>) => Promise<CallToolResult>,
  ) => {
    mcp.registerTool(name, { title: def.title, description: def.description, inputSchema: def.input, outputSchema: def.output, annotations: { title: def.title, ...READ_ONLY } }, (async (args: z.infer<I>) => {
      try {
        return await run(args);
      } catch (err) {
        return failure(ctx, err, warn);
      }
    }) as never);
  };

  readOnlyTool(
    'list_sessions',
    {
      title: 'List recorded sessions',
      description: 'Sessions mcp-tap recorded between MCP hosts and servers, newest first: server, session id, start, duration, counts of messages, errors and findings, exit status (what mcp-tap ls lists).',
      input: S.listSessionsInput,
      output: S.listSessionsOutput,
    },
    (args) => listSessionsTool(ctx, args),
  );
  readOnlyTool(
    'get_session',
    {
      title: 'Session summary',
      description: "One session's header and counts: protocol version, client and server info and capabilities, command line, exit, errors, findings by code, unanswered requests, slowest calls (the top of mcp-tap export).",
      input: S.getSessionInput,
      output: S.getSessionOutput,
    },
    (args) => getSessionTool(ctx, args),
  );
  readOnlyTool(
    'search_messages',
    {
      title: 'Search messages',
      description: 'Records of one session or of every log that match the filters of mcp-tap tail (method globs, sender, kind, problems only, text, slower than), each with its seq and a one-line preview.',
      input: S.searchMessagesInput,
      output: S.searchMessagesOutput,
    },
    (args) => searchMessagesTool(ctx, args),
  );
  readOnlyTool(
    'get_message',
    {
      title: 'Get one message',
      description: 'One record by session and seq, its body as JSON (redacted, shortened when large), with the request it answers or the answer it got.',
      input: S.getMessageInput,
      output: S.getMessageOutput,
    },
    (args) => getMessageTool(ctx, args),
  );
  readOnlyTool(
    'session_stats',
    {
      title: 'Session statistics',
      description: 'Per method and per tool: count, error answers, isError results, latency percentiles and bytes, then unanswered requests and findings by code (mcp-tap stats --json).',
      input: S.sessionStatsInput,
      output: S.sessionStatsOutput,
    },
    (args) => sessionStatsTool(ctx, args),
  );
  readOnlyTool(
    'check_session',
    {
      title: 'Check a session',
      description: 'The verdict of mcp-tap check on a session: findings, error answers, unanswered requests, schema problems in tool definitions and failed assertions, each with its seq (the check JSON report).',
      input: S.checkSessionInput,
      output: S.checkSessionOutput,
    },
    (args) => checkSessionTool(ctx, args),
  );
  readOnlyTool(
    'diff_sessions',
    {
      title: 'Compare two sessions',
      description: 'What changed from session a to session b: tools, resources and prompts added, removed or changed (schemas, descriptions), capabilities, protocol version, latency regressions, new finding codes (mcp-tap diff).',
      input: S.diffSessionsInput,
      output: S.diffSessionsOutput,
    },
    (args) => diffSessionsTool(ctx, args),
  );

  // resources through the low-level server: McpServer's resource API gives resources/list no cursor
  mcp.server.setRequestHandler(ListResourcesRequestSchema, (req) => listSessionResources(ctx, req.params?.cursor));
  mcp.server.setRequestHandler(ListResourceTemplatesRequestSchema, () => sessionTemplates());
  mcp.server.setRequestHandler(ReadResourceRequestSchema, (req) => readSessionResource(ctx, req.params.uri));
  return mcp;
}
