/**
 * MCP 2026-07-28 (schema/2026-07-28/schema.ts), stateless: no initialize; every request's `_meta` carries
 * its protocol version and the client's capabilities; `server/discover`; every result has `resultType`,
 * and `input_required` results carry `inputRequests` (sampling, roots, elicitation) that the client
 * answers in a retry's `inputResponses` with `requestState`; listings and reads are cacheable (`ttlMs`,
 * `cacheScope`); `subscriptions/listen` and its acknowledgement; errors -32021 and -32022 with data.
 * Not in the SDK: every shape here is written from the schema. Pure.
 */
import { z, type ZodRawShape } from 'zod';
import { errorObject, notification, request, tables } from './handshake-methods.js';
import { lazy } from './lazy.js';
import type { NotificationShapes, RequestShapes, RevisionShapes, Shape } from './revision.js';
import { baseShapes, cursor, idOrToken, loggingLevel, present } from './shapes-base.js';
import { contentShapes } from './shapes-content.js';
import { featureShapes } from './shapes-features.js';

/** The shapes of 2026-07-28 (built on first use). */
export function shapes20260728(): RevisionShapes {
  const rev = '2026-07-28';
  const b = baseShapes(rev);
  const c = contentShapes(rev);
  const f = featureShapes(rev);
  const cacheable = (members: ZodRawShape) => b.result({ ttlMs: z.number().min(0), cacheScope: z.enum(['public', 'private']), ...members });
  const paginated = () => b.params({ cursor: cursor.optional() });
  const page = (members: ZodRawShape) => cacheable({ nextCursor: cursor.optional(), ...members });

  // multi round-trip: what an input_required result asks for, and how the retry answers
  const mrtr = lazy({
    inputRequest: () =>
      z.discriminatedUnion('method', [
        z.object({ method: z.literal('sampling/createMessage'), params: z.object(f.createMessageParams) }),
        z.object({ method: z.literal('roots/list'), params: z.object({ _meta: z.unknown().optional() }).optional() }),
        z.object({ method: z.literal('elicitation/create'), params: f.elicitParams }),
      ]),
    inputResponses: (): ZodRawShape => ({
      inputResponses: z.record(z.string(), z.union([z.object(f.createMessageResult), z.object({ roots: z.array(f.root) }), z.object(f.elicitResult)])).optional(),
      requestState: z.string().optional(),
    }),
    inputRequired: (): Shape => ({
      name: 'InputRequiredResult',
      schema: b
        .result({ inputRequests: z.record(z.string(), mrtr.inputRequest).optional(), requestState: z.string().optional() })
        .refine((r) => typeof r === 'object' && r !== null && ('inputRequests' in r || 'requestState' in r), {
          message: 'inputRequests or requestState (at least one of them)',
        }),
    }),
    filter: () =>
      z.object({
        toolsListChanged: z.boolean().optional(),
        promptsListChanged: z.boolean().optional(),
        resourcesListChanged: z.boolean().optional(),
        resourceSubscriptions: z.array(z.string()).optional(),
      }),
  });

  const requests: Record<string, () => RequestShapes> = {
    'server/discover': () => request(
      'DiscoverRequest',
      b.params({}),
      'DiscoverResult',
      cacheable({ supportedVersions: z.array(z.string()), capabilities: b.serverCapabilities, instructions: z.string().optional() }),
      'server/discover',
    ),
    'resources/list': () => request('ListResourcesRequest', paginated(), 'ListResourcesResult', page({ resources: z.array(c.resource) }), 'server/resources'),
    'resources/templates/list': () => request(
      'ListResourceTemplatesRequest',
      paginated(),
      'ListResourceTemplatesResult',
      page({ resourceTemplates: z.array(c.resourceTemplate) }),
      'server/resources',
    ),
    'resources/read': () => request(
      'ReadResourceRequest',
      b.params({ uri: z.string(), ...mrtr.inputResponses }),
      'ReadResourceResult',
      cacheable({ contents: z.array(c.resourceContents) }),
      'server/resources',
    ),
    'prompts/list': () => request('ListPromptsRequest', paginated(), 'ListPromptsResult', page({ prompts: z.array(f.prompt) }), 'server/prompts'),
    'prompts/get': () => request(
      'GetPromptRequest',
      b.params({ name: z.string(), arguments: z.record(z.string(), z.string()).optional(), ...mrtr.inputResponses }),
      'GetPromptResult',
      b.result({ description: z.string().optional(), messages: z.array(f.promptMessage) }),
      'server/prompts',
    ),
    'tools/list': () => request('ListToolsRequest', paginated(), 'ListToolsResult', page({ tools: z.array(f.tool) }), 'server/tools'),
    'tools/call': () => request(
      'CallToolRequest',
      b.params({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional(), ...mrtr.inputResponses }),
      'CallToolResult',
      b.result({ content: z.array(c.contentBlock), structuredContent: z.unknown().optional(), isError: z.boolean().optional() }),
      'server/tools',
    ),
    'completion/complete': () => request('CompleteRequest', b.params(f.completeParams), 'CompleteResult', b.result(f.completeResult), 'server/utilities/completion'),
    'subscriptions/listen': () => request(
      'SubscriptionsListenRequest',
      b.params({ notifications: mrtr.filter }),
      'SubscriptionsListenResult',
      b.result({ _meta: z.object({ 'io.modelcontextprotocol/subscriptionId': idOrToken, 'io.modelcontextprotocol/serverInfo': b.implementation.optional() }) }),
      'basic/patterns/subscriptions',
    ),
  };
  const listChanged = () => b.notificationParams({}, true);
  const notifications: Record<string, () => NotificationShapes> = {
    'notifications/cancelled': () => notification('CancelledNotification', b.notificationParams({ requestId: idOrToken, reason: z.string().optional() }), 'basic/patterns/cancellation'),
    'notifications/progress': () => notification(
      'ProgressNotification',
      b.notificationParams({ progressToken: idOrToken, progress: z.number(), total: z.number().optional(), message: z.string().optional() }),
      'basic/patterns/progress',
    ),
    'notifications/message': () => notification(
      'LoggingMessageNotification',
      b.notificationParams({ level: loggingLevel, logger: z.string().optional(), data: present }),
      'server/utilities/logging',
    ),
    'notifications/resources/updated': () => notification('ResourceUpdatedNotification', b.notificationParams({ uri: z.string() }), 'server/resources'),
    'notifications/resources/list_changed': () => notification('ResourceListChangedNotification', listChanged(), 'server/resources'),
    'notifications/tools/list_changed': () => notification('ToolListChangedNotification', listChanged(), 'server/tools'),
    'notifications/prompts/list_changed': () => notification('PromptListChangedNotification', listChanged(), 'server/prompts'),
    'notifications/subscriptions/acknowledged': () => notification(
      'SubscriptionsAcknowledgedNotification',
      b.notificationParams({ notifications: mrtr.filter }),
      'basic/patterns/subscriptions',
    ),
  };
  return {
    revision: rev,
    ...tables({ requests, notifications }),
    error: { name: 'JSONRPCErrorResponse', schema: errorObject() },
    errorCodes: lazy({
      [-32021]: () => ({ name: 'MissingRequiredClientCapabilityError', schema: errorObject(z.object({ requiredCapabilities: b.clientCapabilities })) }),
      [-32022]: () => ({ name: 'UnsupportedProtocolVersionError', schema: errorObject(z.object({ supported: z.array(z.string()), requested: z.string() })) }),
    }),
    resultAlternative: (_method, result) =>
      typeof result === 'object' && result !== null && (result as Record<string, unknown>)['resultType'] === 'input_required' ? mrtr.inputRequired : undefined,
  };
}
