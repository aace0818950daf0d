/**
 * A 2025-11-25 session with tasks, as the Session writes it (hand-written messages in, records out):
 * what the reader tests feed on. Times are ms after the session start.
 * - `research` (a tools/call task): acknowledged after 1 ms, polled, input_required, an elicitation
 *   inside the task, completed at 4,000 ms, its result fetched after;
 * - `flaky` (a tools/call task): fails at 900 ms (status failed);
 * - `forever` (a tools/call task): still working when the session ends;
 * - `echo`: a plain call answered in 2 ms;
 * - a server-side task: the server's sampling/createMessage runs as a client task for 150 ms.
 */
import type { LogRecord } from '../../../src/log/record.js';
import { handshake, harness, note, req, res } from './session-harness.js';

const task = (taskId: string, status: string) => ({ taskId, status, createdAt: '2025-11-25T10:30:00Z', lastUpdatedAt: '2025-11-25T10:30:00Z', ttl: 60000, pollInterval: 100 });
const related = (taskId: string) => ({ 'io.modelcontextprotocol/related-task': { taskId } });

/** The records, and the seqs of the three calls and of the server's sampling request. */
export function taskSession(): { records: LogRecord[]; research: number; flaky: number; forever: number; sampling: number } {
  const h = handshake(harness());
  const research = h.send('client', req(1, 'tools/call', { name: 'research', arguments: { topic: 'x' }, task: { ttl: 60000 } }), 100).seq;
  h.send('server', res(1, { task: task('R', 'working') }), 101);
  const flaky = h.send('client', req(2, 'tools/call', { name: 'flaky', arguments: {}, task: {} }), 110).seq;
  h.send('server', res(2, { task: task('F', 'working') }), 111);
  h.send('client', req(3, 'tasks/get', { taskId: 'R' }), 200);
  h.send('server', res(3, task('R', 'working')), 201);
  h.send('client', req(4, 'tools/call', { name: 'echo', arguments: { message: 'hi' } }), 300);
  h.send('server', res(4, { content: [{ type: 'text', text: 'hi' }] }), 302);
  h.send('server', note('notifications/tasks/status', task('R', 'input_required')), 400);
  h.send('client', req(5, 'tasks/result', { taskId: 'R' }), 410);
  h.send('server', req(0, 'elicitation/create', { message: 'Which?', requestedSchema: { type: 'object', properties: {} }, _meta: related('R') }), 411);
  h.send('client', res(0, { action: 'accept', content: {}, _meta: related('R') }), 800);
  h.send('client', req(6, 'tasks/get', { taskId: 'F' }), 1000);
  h.send('server', res(6, task('F', 'failed')), 1010);
  const forever = h.send('client', req(7, 'tools/call', { name: 'forever', arguments: {}, task: {} }), 1100).seq;
  h.send('server', res(7, { task: task('V', 'working') }), 1101);
  h.send('client', req(8, 'tools/call', { name: 'ask', arguments: {} }), 1200);
  const sampling = h.send('server', req(1, 'sampling/createMessage', { task: {}, messages: [], maxTokens: 5 }), 1201).seq;
  h.send('client', res(1, { task: task('S', 'working') }), 1202);
  h.send('client', note('notifications/tasks/status', task('S', 'completed')), 1351);
  h.send('server', req(2, 'tasks/result', { taskId: 'S' }), 1360);
  h.send('client', res(2, { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm', _meta: related('S') }), 1361);
  h.send('server', res(8, { content: [{ type: 'text', text: 'ok' }] }), 1362);
  h.send('server', note('notifications/tasks/status', task('R', 'completed')), 4100);
  h.send('server', res(5, { content: [{ type: 'text', text: 'report' }], _meta: related('R') }), 4101);
  h.finish(5000);
  return { records: h.records, research, flaky, forever, sampling };
}
