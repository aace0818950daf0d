/**
 * Tasks as exchanges (2025-11-25 task-augmented requests; from 2026-07-28 the tasks extension), like the
 * input_required chains of exchanges.ts: an answer that is a CreateTaskResult (`result.task`, or the
 * extension's flat `resultType: "task"`) opens a task; `tasks/get|result|cancel|update` for its taskId,
 * their answers, status notifications and messages with the related-task `_meta` link to the call; the
 * first terminal status (completed, failed, cancelled) or the final result (a `tasks/result` answer)
 * ends it and carries the task's duration. Pure. Bounded: per requestor side at most `capacity` open
 * tasks (past that the oldest is no longer listed as open, counted in `evicted`, and still linked while
 * remembered) and as many ended ones remembered for late records.
 */
import { isObject, metaOf } from '../protocol/jsonrpc.js';
import { RELATED_TASK_META } from '../protocol/mcp.js';
import { BoundedMap } from './bounded-map.js';
import type { PendingEntry, TaskEntry } from './request-entry.js';

type Side = 'client' | 'server';

/** What the tracker writes on a record or a batch element (docs/log-format.md, "Tasks"). */
export interface TaskFields {
  taskId?: string;
  taskOf?: number;
  taskStatus?: string;
  taskMs?: number;
  isError?: true;
}

/** A task still open at the end of the session, for the end record. */
export interface OpenTask {
  from: Side;
  id: PendingEntry['id'];
  method: string;
  seq: number;
  taskId: string;
  status: string;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** Requests whose `params.taskId` names the task they act on. */
const BY_TASK_ID = new Set(['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/update']);
/** Status notifications: 2025-11-25 and the extension's schema name; `notifications/tasks` as SEP-2663 writes it. */
const STATUS_NOTES = new Set(['notifications/tasks/status', 'notifications/tasks']);

const other = (s: Side): Side => (s === 'client' ? 'server' : 'client');
const since = (start: number, end: number): number => Math.round((end - start) * 1000) / 1000;

/** A request or notification the tracker reads beyond the fast path's envelope (its params.taskId, its status). */
export function readsTaskParams(method: string): boolean {
  return BY_TASK_ID.has(method) || STATUS_NOTES.has(method);
}

/** The taskId and status of a CreateTaskResult, in either form; undefined for any other result. */
function createdTask(result: Record<string, unknown>): { taskId: string; status: unknown } | undefined {
  const nested = result['task'];
  if (isObject(nested) && typeof nested['taskId'] === 'string') return { taskId: nested['taskId'], status: nested['status'] };
  if (result['resultType'] === 'task' && typeof result['taskId'] === 'string') return { taskId: result['taskId'], status: result['status'] };
  return undefined;
}

function link(t: TaskFields, task: TaskEntry): void {
  t.taskId = task.taskId;
  t.taskOf = task.callSeq;
}

/** The tasks one side requested: open ones in creation order, and recently ended (or evicted) ones. */
class TaskTable {
  private readonly open = new Map<string, TaskEntry>();
  private readonly recent: BoundedMap<string, TaskEntry>;
  evicted = 0;

  constructor(private readonly capacity: number) {
    this.recent = new BoundedMap(capacity);
  }

  add(task: TaskEntry): void {
    this.open.delete(task.taskId); // an id created again: the newer task is the one linked
    this.open.set(task.taskId, task);
    if (this.open.size <= this.capacity) return;
    const oldest = this.open.values().next().value as TaskEntry;
    this.open.delete(oldest.taskId);
    this.recent.set(oldest.taskId, oldest);
    this.evicted++;
  }

  get(taskId: string): TaskEntry | undefined {
    return this.open.get(taskId) ?? this.recent.get(taskId);
  }

  end(task: TaskEntry): void {
    if (this.open.get(task.taskId) === task) this.open.delete(task.taskId);
    this.recent.set(task.taskId, task);
  }

  list(): TaskEntry[] {
    return [...this.open.values()];
  }
}

/** The tasks of one session, both directions (a server's sampling or elicitation may run as a client-side task). */
export class Tasks {
  /** By requestor: the side that sent the call. */
  private readonly tables: Record<Side, TaskTable>;
  /** No task seen yet: the hooks return at once (most sessions have none). */
  private none = true;

  constructor(
    capacity: number,
    /** Called when a task ends (the session releases the call's progress token). */
    private readonly onEnd: (task: TaskEntry) => void,
  ) {
    this.tables = { client: new TaskTable(capacity), server: new TaskTable(capacity) };
  }

  /** Open tasks dropped from the open list because it was full. */
  get evicted(): number {
    return this.tables.client.evicted + this.tables.server.evicted;
  }

  /** A request: tasks/* for a known taskId, or one with the related-task `_meta`, joins its task (and so does its answer). */
  onRequest(from: Side, method: string, params: unknown, t: TaskFields, entry: PendingEntry | undefined): void {
    if (this.none || !isObject(params)) return;
    let task: TaskEntry | undefined;
    if (BY_TASK_ID.has(method)) {
      // the taskId param is the truth for these (the spec says to ignore related-task there); the sender is the requestor
      const id = params['taskId'];
      if (typeof id === 'string') task = this.tables[from].get(id);
    } else task = this.related(params);
    if (!task) return;
    link(t, task);
    if (entry) entry.task = task;
  }

  /** A status notification (from the side running the task) or any notification with the related-task `_meta`. */
  onNotification(from: Side, method: string, params: unknown, t: TaskFields, time: number): void {
    if (this.none || !isObject(params)) return;
    if (STATUS_NOTES.has(method)) {
      const id = params['taskId'];
      const task = typeof id === 'string' ? this.tables[other(from)].get(id) : undefined;
      if (!task) return;
      link(t, task);
      this.status(t, task, params['status'], time);
      return;
    }
    const task = this.related(params);
    if (task) link(t, task);
  }

  /**
   * The answer (from `from`) to the request `e`: answers of linked requests report the task's status or
   * its final result; a CreateTaskResult opens a task. True when this answer created a task (the call's
   * progress token then stays active).
   */
  onAnswer(from: Side, ok: boolean, result: unknown, t: TaskFields, e: PendingEntry, time: number): boolean {
    const task = e.task;
    if (task) {
      link(t, task);
      if (!ok) {
        // the final result of the underlying request may be a JSON-RPC error
        if (e.method === 'tasks/result') this.finish(t, task, 'failed', time);
        return false;
      }
      if (!isObject(result)) return false;
      if (e.method === 'tasks/get' || e.method === 'tasks/cancel') {
        this.status(t, task, result['status'], time);
        // the extension's tasks/get carries the final result inline
        const inline = result['result'];
        if (task.method === 'tools/call' && result['status'] === 'completed' && isObject(inline) && inline['isError'] === true) t.isError = true;
      } else if (e.method === 'tasks/result') {
        if (task.method === 'tools/call' && result['isError'] === true) t.isError = true;
        this.finish(t, task, 'completed', time);
      }
      return false;
    }
    if (!ok || !isObject(result)) return false;
    const created = createdTask(result);
    if (!created) {
      if (!this.none) {
        const rel = this.related(result);
        if (rel) link(t, rel);
      }
      return false;
    }
    this.none = false;
    const requestor = other(from);
    const fresh: TaskEntry = {
      taskId: created.taskId,
      callSeq: e.seq,
      callTime: e.time,
      method: e.method,
      from: requestor,
      status: typeof created.status === 'string' ? created.status : 'working',
      ended: false,
      call: e,
    };
    this.tables[requestor].add(fresh);
    t.taskId = fresh.taskId;
    if (typeof created.status === 'string') {
      t.taskStatus = created.status;
      if (TERMINAL.has(created.status)) this.end(t, fresh, time);
    }
    return true;
  }

  /** Tasks not ended, oldest call first (at most `limit`), and how many there are. */
  openTasks(limit: number): { list: OpenTask[]; count: number } {
    const all = [...this.tables.client.list(), ...this.tables.server.list()].sort((a, b) => a.callSeq - b.callSeq);
    const list = all.slice(0, limit).map((x) => ({ from: x.from, id: x.call.id, method: x.method, seq: x.callSeq, taskId: x.taskId, status: x.status }));
    return { list, count: all.length };
  }

  /** The task a message's related-task `_meta` names (ids are the receiver's: look on both sides). */
  private related(holder: Record<string, unknown>): TaskEntry | undefined {
    const rel = metaOf(holder)?.[RELATED_TASK_META];
    if (!isObject(rel) || typeof rel['taskId'] !== 'string') return undefined;
    return this.tables.client.get(rel['taskId']) ?? this.tables.server.get(rel['taskId']);
  }

  private status(t: TaskFields, task: TaskEntry, status: unknown, time: number): void {
    if (typeof status !== 'string') return;
    t.taskStatus = status;
    if (task.ended) return;
    task.status = status;
    if (TERMINAL.has(status)) this.end(t, task, time);
  }

  /** The final result arrived: ends the task unless a terminal status did already. */
  private finish(t: TaskFields, task: TaskEntry, status: string, time: number): void {
    if (task.ended) return;
    t.taskStatus = status;
    task.status = status;
    this.end(t, task, time);
  }

  private end(t: TaskFields, task: TaskEntry, time: number): void {
    task.ended = true;
    t.taskMs = since(task.callTime, time);
    this.tables[task.from].end(task);
    this.onEnd(task);
  }
}
