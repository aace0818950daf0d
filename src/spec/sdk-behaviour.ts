/**
 * What a host or server built on the official TypeScript SDK does with a message that breaks its shape:
 * the SDK's own zod schema for that message is run on it (its Client.request() parses every result with
 * the method's result schema and fails the call; its request and notification handlers parse what they
 * are given and answer with an error, or drop the notification). Asked only about messages that already
 * broke a shape, so it costs nothing on clean traffic. The SDK speaks the handshake revisions only. Pure.
 */
import * as sdk from '@modelcontextprotocol/sdk/types.js';
import type { ZodType } from 'zod';
import type { MessageKind } from './check-message.js';
import { since, type Revision } from './revision.js';

/** Per method: the schema the SDK parses the request with, and the one its client parses the result with. */
const METHODS: Record<string, { request: ZodType; result: ZodType }> = {
  initialize: { request: sdk.InitializeRequestSchema, result: sdk.InitializeResultSchema },
  ping: { request: sdk.PingRequestSchema, result: sdk.EmptyResultSchema },
  'completion/complete': { request: sdk.CompleteRequestSchema, result: sdk.CompleteResultSchema },
  'logging/setLevel': { request: sdk.SetLevelRequestSchema, result: sdk.EmptyResultSchema },
  'prompts/get': { request: sdk.GetPromptRequestSchema, result: sdk.GetPromptResultSchema },
  'prompts/list': { request: sdk.ListPromptsRequestSchema, result: sdk.ListPromptsResultSchema },
  'resources/list': { request: sdk.ListResourcesRequestSchema, result: sdk.ListResourcesResultSchema },
  'resources/templates/list': { request: sdk.ListResourceTemplatesRequestSchema, result: sdk.ListResourceTemplatesResultSchema },
  'resources/read': { request: sdk.ReadResourceRequestSchema, result: sdk.ReadResourceResultSchema },
  'resources/subscribe': { request: sdk.SubscribeRequestSchema, result: sdk.EmptyResultSchema },
  'resources/unsubscribe': { request: sdk.UnsubscribeRequestSchema, result: sdk.EmptyResultSchema },
  'tools/call': { request: sdk.CallToolRequestSchema, result: sdk.CallToolResultSchema },
  'tools/list': { request: sdk.ListToolsRequestSchema, result: sdk.ListToolsResultSchema },
  'sampling/createMessage': { request: sdk.CreateMessageRequestSchema, result: sdk.CreateMessageResultSchema },
  'roots/list': { request: sdk.ListRootsRequestSchema, result: sdk.ListRootsResultSchema },
  'elicitation/create': { request: sdk.ElicitRequestSchema, result: sdk.ElicitResultSchema },
  'tasks/get': { request: sdk.GetTaskRequestSchema, result: sdk.GetTaskResultSchema },
  'tasks/result': { request: sdk.GetTaskPayloadRequestSchema, result: sdk.GetTaskPayloadResultSchema },
  'tasks/list': { request: sdk.ListTasksRequestSchema, result: sdk.ListTasksResultSchema },
  'tasks/cancel': { request: sdk.CancelTaskRequestSchema, result: sdk.CancelTaskResultSchema },
};

const NOTIFICATIONS: Record<string, ZodType> = {
  'notifications/cancelled': sdk.CancelledNotificationSchema,
  'notifications/progress': sdk.ProgressNotificationSchema,
  'notifications/initialized': sdk.InitializedNotificationSchema,
  'notifications/roots/list_changed': sdk.RootsListChangedNotificationSchema,
  'notifications/message': sdk.LoggingMessageNotificationSchema,
  'notifications/resources/updated': sdk.ResourceUpdatedNotificationSchema,
  'notifications/resources/list_changed': sdk.ResourceListChangedNotificationSchema,
  'notifications/tools/list_changed': sdk.ToolListChangedNotificationSchema,
  'notifications/prompts/list_changed': sdk.PromptListChangedNotificationSchema,
  'notifications/elicitation/complete': sdk.ElicitationCompleteNotificationSchema,
  'notifications/tasks/status': sdk.TaskStatusNotificationSchema,
};

/** What the result's rejection costs the user, by the request it answers. */
const RESULT_COST: Record<string, string> = {
  initialize: 'connecting fails and the host shows the server as failed',
  'tools/list': 'listing fails and the host shows none of the server\'s tools',
  'prompts/list': 'listing fails and the host shows none of the server\'s prompts',
  'resources/list': 'listing fails and the host shows none of the server\'s resources',
  'resources/templates/list': 'listing fails and the host shows none of the server\'s resource templates',
  'tools/call': 'the call fails with a validation error instead of the tool\'s result',
  'resources/read': 'reading the resource fails and the host shows nothing',
  'prompts/get': 'the prompt cannot be used',
};

type Obj = Record<string, unknown>;

/** Whether the SDK's own schema for this message accepts it; undefined where the SDK has none. */
export function sdkAccepts(kind: MessageKind, method: string, msg: Obj): boolean | undefined {
  if (kind === 'notification') return Object.hasOwn(NOTIFICATIONS, method) ? NOTIFICATIONS[method]!.safeParse(msg).success : undefined;
  const m = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (!m) return undefined;
  if (kind === 'request') return m.request.safeParse(msg).success;
  if (kind !== 'response') return undefined;
  const result = msg['result'];
  const task = typeof result === 'object' && result !== null && 'task' in result;
  return (task ? sdk.CreateTaskResultSchema : m.result).safeParse(result).success;
}

/**
 * One sentence on what an SDK-based peer does with this message (which broke its shape), or undefined
 * where the SDK does not apply (2026-07-28, methods it does not know).
 */
export function sdkBehaviour(rev: Revision, kind: MessageKind, from: string, method: string | undefined, msg: Obj): string | undefined {
  if (since(rev, '2026-07-28') || method === undefined) return undefined;
  const accepts = sdkAccepts(kind, method, msg);
  if (accepts === undefined) return undefined;
  if (accepts) return 'The TypeScript SDK accepts it; stricter peers may not.';
  if (kind === 'notification') {
    return method === 'notifications/progress'
      ? 'The TypeScript SDK drops it (reporting an error): the progress callback is never called.'
      : 'A TypeScript SDK peer that handles it drops it and reports an error.';
  }
  if (kind === 'request') {
    return from === 'client'
      ? 'A TypeScript SDK server does not run its handler: it answers with an error.'
      : 'A TypeScript SDK client does not run its handler: it answers with an error.';
  }
  if (from === 'client') return 'A TypeScript SDK server rejects this answer: the request it made fails.';
  return `The TypeScript SDK client rejects this answer: ${RESULT_COST[method] ?? 'the request fails'}.`;
}
