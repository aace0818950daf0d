/**
 * The methods every handshake revision (2024-11-05 to 2025-11-25) has, with the shapes of that revision:
 * the lifecycle, ping, resources, prompts, tools, logging, completion, sampling and roots. Each
 * revision's module (src/spec/<revision>.ts) starts from these and adds what it introduced. Pure.
 */
import { z, type ZodRawShape, type ZodType } from 'zod';
import { lazy } from './lazy.js';
import type { NotificationShapes, RequestShapes, Revision, RevisionShapes } from './revision.js';
import { baseShapes, cursor, idOrToken, loggingLevel, present } from './shapes-base.js';
import { contentShapes } from './shapes-content.js';
import { featureShapes } from './shapes-features.js';

/** A request entry: `params` and result shapes named after the spec's types. */
export const request = (name: string, params: ZodType, resultName: string, result: ZodType, page: string): RequestShapes => ({
  params: { name, schema: params },
  result: { name: resultName, schema: result },
  page,
});

/** A notification entry. */
export const notification = (name: string, params: ZodType, page: string): NotificationShapes => ({ params: { name, schema: params }, page });

/** The error object of a JSON-RPC error response (code integer, message string, data anything). */
export const errorObject = (data: ZodType = z.unknown().optional()): ZodType => z.object({ code: z.number().int(), message: z.string(), data });

/** A revision's method tables before they are made lazy: each entry builds its shapes when called. */
export interface Thunks {
  requests: Record<string, () => RequestShapes>;
  notifications: Record<string, () => NotificationShapes>;
}

/** The tables of RevisionShapes from thunks: each method's schemas are built when first looked up. */
export const tables = (t: Thunks): Pick<RevisionShapes, 'requests' | 'notifications'> => ({ requests: lazy(t.requests), notifications: lazy(t.notifications) });

/** The requests and notifications shared by the handshake revisions, shaped as `rev` defines them. */
export function handshakeMethods(rev: Revision): Thunks {
  const b = baseShapes(rev);
  const c = contentShapes(rev);
  const f = featureShapes(rev);
  const paginated = (extra: ZodRawShape = {}) => b.params({ cursor: cursor.optional(), ...extra }, true);
  const page = (members: ZodRawShape) => b.result({ nextCursor: cursor.optional(), ...members });
  const empty = () => b.result({});
  const uri = () => b.params({ uri: z.string() });
  const listChanged = () => b.notificationParams({}, true);
  const requests: Record<string, () => RequestShapes> = {
    initialize: () => request(
      'InitializeRequest',
      b.params({ protocolVersion: z.string(), capabilities: b.clientCapabilities, clientInfo: b.implementation }),
      'InitializeResult',
      b.result({ protocolVersion: z.string(), capabilities: b.serverCapabilities, serverInfo: b.implementation, instructions: z.string().optional() }),
      'basic/lifecycle',
    ),
    ping: () => request('PingRequest', b.params({}, true), 'EmptyResult', empty(), 'basic/utilities/ping'),
    'resources/list': () => request('ListResourcesRequest', paginated(), 'ListResourcesResult', page({ resources: z.array(c.resource) }), 'server/resources'),
    'resources/templates/list': () => request(
      'ListResourceTemplatesRequest',
      paginated(),
      'ListResourceTemplatesResult',
      page({ resourceTemplates: z.array(c.resourceTemplate) }),
      'server/resources',
    ),
    'resources/read': () => request('ReadResourceRequest', uri(), 'ReadResourceResult', b.result({ contents: z.array(c.resourceContents) }), 'server/resources'),
    'resources/subscribe': () => request('SubscribeRequest', uri(), 'EmptyResult', empty(), 'server/resources'),
    'resources/unsubscribe': () => request('UnsubscribeRequest', uri(), 'EmptyResult', empty(), 'server/resources'),
    'prompts/list': () => request('ListPromptsRequest', paginated(), 'ListPromptsResult', page({ prompts: z.array(f.prompt) }), 'server/prompts'),
    'prompts/get': () => request(
      'GetPromptRequest',
      b.params({ name: z.string(), arguments: z.record(z.string(), z.string()).optional() }),
      'GetPromptResult',
      b.result({ description: z.string().optional(), messages: z.array(f.promptMessage) }),
      'server/prompts',
    ),
    'tools/list': () => request('ListToolsRequest', paginated(), 'ListToolsResult', page({ tools: z.array(f.tool) }), 'server/tools'),
    'tools/call': () => request(
      'CallToolRequest',
      b.params({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional(), ...f.taskAugment }),
      'CallToolResult',
      b.result({
        content: z.array(c.contentBlock),
        ...(rev === '2024-11-05' || rev === '2025-03-26' ? {} : { structuredContent: z.record(z.string(), z.unknown()).optional() }),
        isError: z.boolean().optional(),
      }),
      'server/tools',
    ),
    'logging/setLevel': () => request('SetLevelRequest', b.params({ level: loggingLevel }), 'EmptyResult', empty(), 'server/utilities/logging'),
    'completion/complete': () => request('CompleteRequest', b.params(f.completeParams), 'CompleteResult', b.result(f.completeResult), 'server/utilities/completion'),
    'sampling/createMessage': () => request('CreateMessageRequest', b.params(f.createMessageParams), 'CreateMessageResult', b.result(f.createMessageResult), 'client/sampling'),
    'roots/list': () => request('ListRootsRequest', b.params({}, true), 'ListRootsResult', b.result({ roots: z.array(f.root) }), 'client/roots'),
  };
  const progress = {
    progressToken: idOrToken,
    progress: z.number(),
    total: z.number().optional(),
    ...(rev === '2024-11-05' ? {} : { message: z.string().optional() }),
  };
  const notifications: Record<string, () => NotificationShapes> = {
    'notifications/cancelled': () => notification(
      'CancelledNotification',
      b.notificationParams({ requestId: rev === '2025-11-25' ? idOrToken.optional() : idOrToken, reason: z.string().optional() }),
      'basic/utilities/cancellation',
    ),
    'notifications/progress': () => notification('ProgressNotification', b.notificationParams(progress), 'basic/utilities/progress'),
    'notifications/initialized': () => notification('InitializedNotification', listChanged(), 'basic/lifecycle'),
    'notifications/roots/list_changed': () => notification('RootsListChangedNotification', listChanged(), 'client/roots'),
    'notifications/message': () => notification(
      'LoggingMessageNotification',
      b.notificationParams({ level: loggingLevel, logger: z.string().optional(), data: present }),
      'server/utilities/logging',
    ),
    'notifications/resources/updated': () => notification('ResourceUpdatedNotification', b.notificationParams({ uri: z.string() }), 'server/resources'),
    'notifications/resources/list_changed': () => notification('ResourceListChangedNotification', listChanged(), 'server/resources'),
    'notifications/tools/list_changed': () => notification('ToolListChangedNotification', listChanged(), 'server/tools'),
    'notifications/prompts/list_changed': () => notification('PromptListChangedNotification', listChanged(), 'server/prompts'),
  };
  return { requests, notifications };
}
