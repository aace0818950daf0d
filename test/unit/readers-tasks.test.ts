/**
 * Every reader times a call answered with a task by its task (issue 28 §3): from the call to the task's
 * terminal status or final result, not the instant acknowledgement; a task that ends `failed` is an
 * error; a task still working at the end reads as running, not as answered. Records from the Session
 * (test/unit/helpers/task-session.ts).
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/check/evaluate.js';
import { parseMaxMs } from '../../src/check/assertions.js';
import { parseFailOn } from '../../src/check/fail-on.js';
import { gatherSession, SessionGatherer } from '../../src/check/gather.js';
import { NO_ASSERTIONS } from '../../src/check/assertions.js';
import { SpanBuilder, type Span } from '../../src/otlp/spans.js';
import { renderHeaderHtml } from '../../src/report/header-html.js';
import { computeStats, renderTextStats } from '../../src/transcript/stats.js';
import { summarizeSession } from '../../src/transcript/summary.js';
import { SessionFold } from '../../src/session-view/fold.js';
import { toRow } from '../../src/session-view/to-row.js';
import { rowRedactor } from '../../src/ui/row-redact.js';
import { SessionCards } from '../../src/ui/session-cards.js';
import { renderRecord } from '../../src/view/render-line.js';
import { buildFilter, isProblem } from '../../src/view/filters.js';
import { renderMarkdown } from '../../src/transcript/markdown.js';
import { TaskCalls } from '../../src/log/task-records.js';
import { taskSession } from './helpers/task-session.js';
import { foldRecords } from '../helpers/session-fold.js';

const s = taskSession();

describe('stats', () => {
  const st = computeStats(s.records);
  const tool = (name: string) => st.tools.find((t) => t.tool === name)!;
  const row = (m: string, from = 'client') => st.methods.find((x) => x.method === m && x.from === from && x.kind === 'request')!;

  it('times a task call to its task end, not its CreateTaskResult', () => {
    expect(tool('research')).toMatchObject({ count: 1, answered: 1, errors: 0, tasks: 1, latency: { n: 1, max: 4000 } });
    expect(tool('flaky')).toMatchObject({ count: 1, answered: 1, errors: 1, tasks: 1, latency: { n: 1, max: 900 } });
    expect(tool('echo')).toMatchObject({ answered: 1, latency: { max: 2 } });
    expect(tool('echo').tasks).toBeUndefined();
  });

  it('a task still working at the end is running: not answered, not timed', () => {
    expect(tool('forever')).toMatchObject({ count: 1, answered: 0, tasks: 1, running: 1, latency: null });
    expect(row('tools/call')).toMatchObject({ count: 5, answered: 4, errors: 1, tasks: 3, running: 1 });
  });

  it('a server-side task times the server request', () => {
    expect(row('sampling/createMessage', 'server')).toMatchObject({ count: 1, answered: 1, tasks: 1, latency: { max: 150 } });
  });

  it('tasks/* keep their own rows', () => {
    expect(row('tasks/get')).toMatchObject({ count: 2, answered: 2, latency: { max: 10 } });
  });

  it('says so in the text', () => {
    expect(renderTextStats(st)).toContain("calls answered with a task: 4 (1 still running at the end); timed to the task's end");
  });
});

describe('check', () => {
  const items = s.records.map((record, i) => ({ record, line: i + 1 }));
  const report = (opts: Parameters<typeof evaluate>[1] = {}) => evaluate(gatherSession('t.log', 'test', items), opts);
  const bySeq = (r: ReturnType<typeof report>, seq: number) => r.requests.find((q) => q.seq === seq)!;

  it('a task call: its status, duration and outcome are the task\'s', () => {
    const r = report();
    expect(bySeq(r, s.research)).toMatchObject({ method: 'tools/call', target: 'research', status: 'ok', ms: 4000, task: { taskId: 'R', status: 'completed' } });
    expect(bySeq(r, s.flaky)).toMatchObject({ status: 'task-failed', ms: 900 });
    expect(bySeq(r, s.forever)).toMatchObject({ status: 'task-running', runningMs: 3900, task: { taskId: 'V', status: 'working' } });
    expect(bySeq(r, s.forever).ms).toBeUndefined();
    expect(bySeq(r, s.sampling)).toMatchObject({ from: 'server', status: 'ok', ms: 150 });
    expect(r.summary).toMatchObject({ tasks: 4, tasksRunning: 1, errors: 1 });
  });

  it('no finding on a legal task session; a failed task is an error for --fail-on errors, at the record that ended it', () => {
    expect(report().passed).toBe(true);
    const r = report({ failOn: parseFailOn(['errors']) });
    expect(r.passed).toBe(false);
    expect(r.problems.map((p) => p.ruleId)).toEqual(['task-failed']);
    const ended = s.records.find((x) => x.taskOf === s.flaky && x.taskMs !== undefined)!;
    expect(r.problems[0]).toMatchObject({ category: 'errors', seq: ended.seq });
  });

  it('--max-ms judges the task duration, and a task still running past the limit', () => {
    const r = report({ assertions: { ...NO_ASSERTIONS, maxMs: parseMaxMs(['research=3000', 'forever=3000', 'echo=3000']) } });
    expect(r.assertions.map((a) => [a.flag, a.passed, a.matched])).toEqual([
      ['--max-ms research=3000', false, 1],
      ['--max-ms forever=3000', false, 1],
      ['--max-ms echo=3000', true, 1],
    ]);
    expect(r.problems.filter((p) => p.ruleId === 'max-ms-exceeded').map((p) => p.message)).toEqual([
      `tools/call "forever" (seq ${s.forever}): its task was still running after 3900 ms when the session ended, over the 3000 ms limit (--max-ms forever=3000)`,
      `tools/call "research" (seq ${s.research}) took 4000 ms, over the 3000 ms limit (--max-ms research=3000)`,
    ]);
    expect(report({ assertions: { ...NO_ASSERTIONS, maxMs: parseMaxMs(['research=4500']) } }).passed).toBe(true);
  });

  it('bounded gathering keeps a task call until its task ends and judges its task duration', () => {
    const g = new SessionGatherer('t.log', 'test', { listed: 0, maxMs: [{ key: 'research', ms: 3000 }], forbidTools: [] });
    for (const it of items) g.add(it);
    const f = g.finish();
    const kept = f.requests.map((q) => q.seq);
    expect(kept).toContain(s.research);
    expect(kept).toContain(s.forever);
    expect(kept).toContain(s.flaky);
  });
});

describe('OTLP spans', () => {
  const b = new SpanBuilder();
  const spans: Span[] = [];
  for (const r of s.records) spans.push(...b.push(r));
  const named = (n: string) => spans.find((x) => x.name === n)!;

  it("a task call's span lasts from the call to the task's end, with the task's statuses as events", () => {
    const research = named('tools/call research');
    expect(research.end - research.start).toBe(4000);
    expect(research.attributes['mcp_tap.task.id']).toBe('R');
    expect(research.attributes['mcp_tap.task.status']).toBe('completed');
    expect(research.status.code).toBe('unset');
    expect(research.events.filter((e) => e.name.startsWith('mcp_tap.task')).map((e) => e.attributes['mcp_tap.task.status'])).toEqual(['working', 'working', 'input_required', 'completed']);
  });

  it('a failed task is an error span; a running one ends with the session, running, not an error', () => {
    expect(named('tools/call flaky')).toMatchObject({ status: { code: 'error' }, attributes: { 'error.type': 'task_failed' } });
    const forever = named('tools/call forever');
    expect(forever.end - forever.start).toBe(3900);
    expect(forever.attributes['mcp_tap.task.running']).toBe(true);
    expect(forever.status.code).toBe('unset');
  });

  it("the task's own requests nest under the call's span", () => {
    const research = named('tools/call research');
    const polls = spans.filter((x) => x.name === 'tasks/get' && x.parentSpanId === research.spanId);
    expect(polls).toHaveLength(1);
    expect(spans.find((x) => x.name === 'elicitation/create')!.parentSpanId).toBe(research.spanId);
    expect(named('sampling/createMessage').end - named('sampling/createMessage').start).toBe(150);
  });
});

describe('summary, Markdown and the HTML header', () => {
  const sum = summarizeSession(s.records);

  it('the slowest calls are timed by their task, and the running task is listed', () => {
    expect(sum.slowest.map((c) => [c.method, c.target ?? '', c.ms, c.outcome, c.task === true])).toEqual([
      ['tools/call', 'research', 4000, 'result', true],
      ['tasks/result', '', 3691, 'result', false],
      ['tools/call', 'flaky', 900, 'error', true],
      ['elicitation/create', '', 389, 'result', false],
      ['tools/call', 'ask', 162, 'result', false],
    ]);
    expect(sum.tasks).toMatchObject({ count: 4, runningCount: 1, running: [{ from: 'client', id: 7, method: 'tools/call', seq: s.forever, taskId: 'V', status: 'working' }] });
  });

  it('Markdown says what happened to each task call', () => {
    const md = renderMarkdown(s.records, { redacted: false });
    expect(md).toContain('| Calls answered with a task (still running) | 4 (1) |');
    expect(md).toContain('**Tasks still running at the end**');
    expect(md).toContain('— task `R` created (`working`) in 1.0 ms (#');
    expect(md).toContain(`\`notifications/tasks/status\` · task of #${s.research} \`completed\`, the task ended after 4.00 s`);
    expect(md).toContain(`request \`tasks/get\` · id \`6\` · task of #${s.flaky} — result in 10.0 ms · task \`failed\`, the task ended after 900.0 ms (#`);
    expect(md).toContain('| 4.00 s | result (task) |');
  });

  it('the HTML header counts tasks and lists the running one', () => {
    const html = renderHeaderHtml(sum);
    expect(html).toContain('<th scope="row">Tasks still running</th><td>1</td>');
    expect(html).toContain('(task V: working)');
  });
});

describe('report waterfall', () => {
  const m = foldRecords(s.records);
  const bar = (seq: number) => m.bars.find((b) => b.seq === seq)!;

  it("a task call's bar runs from the call to its task's end, coloured by how the task ended", () => {
    const r = bar(s.research);
    expect(r).toMatchObject({ ms: 4000, outcome: 'ok', task: { id: 'R', status: 'completed' } });
    expect([r.end - r.start, r.task!.at - r.start]).toEqual([4000, 1]);
    expect(bar(s.flaky)).toMatchObject({ ms: 900, outcome: 'error', errorText: 'the task failed' });
    expect(bar(s.flaky).end - bar(s.flaky).start).toBe(900);
    expect(bar(s.sampling)).toMatchObject({ ms: 150, outcome: 'ok' });
  });

  it('a task still working at the end runs to the end, as running, not as answered', () => {
    expect(bar(s.forever)).toMatchObject({ end: m.duration, outcome: 'running', task: { status: 'working' } });
    expect(bar(s.forever).ms).toBeUndefined();
  });
});

describe('live UI rows and cards', () => {
  // the rows as the live UI streams them (times from the first record, strings redacted), folded as its page folds them
  const origin = s.records[0]!.time;
  const rows = new SessionFold();
  rows.addNew(s.records.map((r) => toRow(r, origin, rowRedactor())));
  const bar = (seq: number) => rows.wf.bars.find((b) => b.seq === seq)!;

  it("a task call's bar ends with the task; a running one stays open", () => {
    expect(bar(s.research)).toMatchObject({ outcome: 'ok', ms: 4000, end: s.records.find((r) => r.taskOf === s.research && r.taskMs !== undefined)!.time - origin });
    expect(bar(s.flaky)).toMatchObject({ outcome: 'error', ms: 900 });
    expect(bar(s.forever).outcome).toBe('running');
    // open: it runs to wherever the session has got to
    const researchEnd = bar(s.research).end;
    rows.wf.extendTo(rows.end + 1000);
    expect(bar(s.forever).end).toBe(rows.end);
    expect(bar(s.research).end).toBe(researchEnd);
    const ack = rows.rows.find((r) => r.r === s.research)!;
    expect(ack).toMatchObject({ tk: 'R', ts: 'working' });
  });

  it("the card's latencies are the task durations, not the acknowledgements", () => {
    const cards = new SessionCards();
    for (const r of s.records) cards.add(0, 't.jsonrpc.log', r);
    // initialize, tasks/get, echo, the elicitation, flaky's end (not its poll's 10 ms), the sampling task's
    // end, tasks/result, ask, research's end, its tasks/result: no acknowledgement among them
    expect(cards.all()[0]!.latency).toEqual([1, 1, 2, 389, 900, 150, 1, 162, 4000, 3691]);
  });
});

describe('tail', () => {
  const line = (r: (typeof s.records)[number]) => renderRecord(r, { color: false, full: false, width: 200 });

  it('says the call runs on as a task, and where the task ended and how long it took', () => {
    const ack = s.records.find((r) => r.reqSeq === s.research && r.kind === 'response')!;
    expect(line(ack)).toContain('⧗ task R working: the call runs on as a task');
    const end = s.records.find((r) => r.taskOf === s.research && r.taskMs !== undefined)!;
    expect(line(end)).toContain(`⧗ task of #${s.research} completed — the task took 4000ms`);
    expect(line(s.records.at(-1)!)).toContain('1 task still running');
  });

  it('--slow finds the task that took long; --errors the one that failed', () => {
    const slow = s.records.filter(buildFilter({ slow: 3000 }));
    expect(slow.map((r) => r.taskOf ?? r.reqSeq)).toEqual([s.research, s.research]);
    const failedEnd = s.records.find((r) => r.taskOf === s.flaky && r.taskMs !== undefined)!;
    expect(isProblem(failedEnd)).toBe(true);
  });
});

describe('bounded reader state', () => {
  it('TaskCalls keeps at most its capacity, the newest, and counts what it dropped', () => {
    const t = new TaskCalls<number>(2);
    for (let i = 1; i <= 5; i++) t.set('s', i, i);
    expect([...t.values()]).toEqual([4, 5]);
    expect(t.size).toBe(2);
    expect(t.dropped).toBe(3);
    expect(t.get('s', 1)).toBeUndefined();
    expect(t.get('other', 5)).toBeUndefined();
  });
});
