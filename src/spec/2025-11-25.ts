/**
 * MCP 2025-11-25 (schema/2025-11-25/schema.ts), the last handshake revision: adds tasks (`tasks/*`, the
 * status notification, task-augmented tools/call, sampling and elicitation answered with a task handle),
 * URL-mode elicitation with `notifications/elicitation/complete` and error -32042, icons, sampling with
 * tools, and an optional `requestId` on cancel. Pure.
 */
import { z } from 'zod';
import { errorObject, handshakeMethods, notification, request, tables } from './handshake-methods.js';
import { lazy } from './lazy.js';
import type { RevisionShapes, Shape } from './revision.js';
import { baseShapes, cursor } from './shapes-base.js';
import { featureShapes } from './shapes-features.js';

/** Requests a receiver may run as a task (`params.task`); their answer is then a CreateTaskResult. */
const TASK_AUGMENTABLE = new Set(['tools/call', 'sampling/createMessage', 'elicitation/create']);

/** The shapes of 2025-11-25 (built on first use). */
export function shapes20251125(): RevisionShapes {
  const rev = '2025-11-25';
  const m = handshakeMethods(rev);
  const b = baseShapes(rev);
  const f = featureShapes(rev);
  const taskId = () => b.params({ taskId: z.string() });
  const taskResult = () => b.result({ ...f.task.shape });
  m.requests['elicitation/create'] = () => request('ElicitRequest', f.elicitParams, 'ElicitResult', b.result(f.elicitResult), 'client/elicitation');
  m.requests['tasks/get'] = () => request('GetTaskRequest', taskId(), 'GetTaskResult', taskResult(), 'basic/utilities/tasks');
  // the underlying request's result, whatever it was: open beyond Result
  m.requests['tasks/result'] = () => request('GetTaskPayloadRequest', taskId(), 'GetTaskPayloadResult', b.result({}), 'basic/utilities/tasks');
  m.requests['tasks/cancel'] = () => request('CancelTaskRequest', taskId(), 'CancelTaskResult', taskResult(), 'basic/utilities/tasks');
  m.requests['tasks/list'] = () => request(
    'ListTasksRequest',
    b.params({ cursor: cursor.optional() }, true),
    'ListTasksResult',
    b.result({ nextCursor: cursor.optional(), tasks: z.array(f.task) }),
    'basic/utilities/tasks',
  );
  m.notifications['notifications/elicitation/complete'] = () => notification('ElicitationCompleteNotification', b.notificationParams({ elicitationId: z.string() }), 'client/elicitation');
  m.notifications['notifications/tasks/status'] = () => notification('TaskStatusNotification', b.notificationParams({ ...f.task.shape }), 'basic/utilities/tasks');
  let createTask: Shape | undefined;
  return {
    revision: rev,
    ...tables(m),
    error: { name: 'JSONRPCErrorResponse', schema: errorObject() },
    errorCodes: lazy({
      [-32042]: () => ({ name: 'URLElicitationRequiredError', schema: errorObject(z.object({ elicitations: z.array(f.elicitUrlParams) })) }),
    }),
    resultAlternative: (method, result) =>
      TASK_AUGMENTABLE.has(method) && typeof result === 'object' && result !== null && 'task' in result
        ? (createTask ??= { name: 'CreateTaskResult', schema: b.result({ task: f.task }) })
        : undefined,
  };
}
