/**
 * The task members of records (docs/log-format.md, "Tasks") as readers need them: which call a record's
 * task belongs to, whether the record created the task or ended it. A call answered with a task is not
 * done when its answer comes: its duration and outcome are those of the task. Pure, except TaskCalls,
 * a reader's bounded per-call state.
 */

/** What one record says about its task. */
export interface TaskFacts {
  taskId: string;
  /** Seq of the call: the request that created the task. */
  callSeq: number;
  /** The record is the call's answer that created the task (its CreateTaskResult). */
  created: boolean;
  /** The status the record reports, if any. */
  status?: string;
  /** On the record that ended the task: ms from the call to this record (the task's duration). */
  endMs?: number;
  /** The record carries the tool's result with isError. */
  isError: boolean;
}

/** How a task ended; `failed` is an error of the call. */
export type TaskEnd = 'completed' | 'failed' | 'cancelled';

interface TaskMembers {
  taskId?: unknown;
  taskOf?: unknown;
  taskStatus?: unknown;
  taskMs?: unknown;
  reqSeq?: unknown;
  isError?: unknown;
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The task facts of a record or a batch element; undefined when it belongs to no task. */
export function taskFacts(r: TaskMembers): TaskFacts | undefined {
  if (typeof r.taskId !== 'string') return undefined;
  const created = !num(r.taskOf);
  const callSeq = created ? r.reqSeq : r.taskOf;
  if (!num(callSeq)) return undefined;
  const f: TaskFacts = { taskId: r.taskId, callSeq, created, isError: r.isError === true };
  if (typeof r.taskStatus === 'string') f.status = r.taskStatus;
  if (num(r.taskMs)) f.endMs = r.taskMs;
  return f;
}

/** The call's outcome from the status that ended its task (anything else counts as completed). */
export function taskEnd(status: string | undefined): TaskEnd {
  return status === 'failed' || status === 'cancelled' ? status : 'completed';
}

/** How many task calls a reader keeps state for before it forgets the oldest (counted in `dropped`). */
export const TASK_CALLS = 10_000;

/**
 * A reader's state per task call, by session and call seq, in creation order. Bounded: past `capacity`
 * the oldest is dropped (counted, and handed to `onDrop` for a reader that still owes it a count), so a
 * log full of tasks costs a fixed amount of memory.
 */
export class TaskCalls<T> {
  private readonly map = new Map<string, T>();
  dropped = 0;

  constructor(
    private readonly capacity = TASK_CALLS,
    private readonly onDrop?: (v: T) => void,
  ) {}

  private static key(session: unknown, callSeq: number): string {
    return `${typeof session === 'string' ? session : ''}\0${callSeq}`;
  }

  set(session: unknown, callSeq: number, v: T): void {
    const k = TaskCalls.key(session, callSeq);
    this.map.delete(k);
    this.map.set(k, v);
    if (this.map.size > this.capacity) {
      const [oldest, value] = this.map.entries().next().value as [string, T];
      this.map.delete(oldest);
      this.dropped++;
      this.onDrop?.(value);
    }
  }

  get(session: unknown, callSeq: number): T | undefined {
    return this.map.get(TaskCalls.key(session, callSeq));
  }

  delete(session: unknown, callSeq: number): void {
    this.map.delete(TaskCalls.key(session, callSeq));
  }

  values(): IterableIterator<T> {
    return this.map.values();
  }

  get size(): number {
    return this.map.size;
  }
}
