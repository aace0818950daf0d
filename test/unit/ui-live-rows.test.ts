/**
 * The rows the live UI streams as records arrive are the rows it serves as a session's history: the
 * same record → row function, times from the session card's start, every wire string redacted like
 * export. A real LogWatch follows a log while the planted-secrets fixture is appended to it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogRecord } from '../../src/log/record.js';
import type { SessionRow } from '../../src/session-view/row.js';
import { LogWatch } from '../../src/ui/log-watch.js';
import { sessionRowLines } from '../../src/ui/read-session.js';
import { plantedRedactOptions, SECRETS_LOG, survivingSecrets } from '../fixtures/planted-secrets.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

const tmp = tempDir('mcp-tap-live-rows-');
const ac = new AbortController();
afterAll(() => {
  ac.abort();
  tmp.cleanup();
});

describe('live rows', () => {
  it('streamed as the records arrive: every record a row, times from the card start, no planted secret, the same as the history', async () => {
    const text = readFileSync(SECRETS_LOG, 'utf8');
    const records = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogRecord);
    const path = join(tmp.dir, 'live.jsonrpc.log');
    writeFileSync(path, '');
    const watch = new LogWatch({ files: [path], redact: plantedRedactOptions, signal: ac.signal, pollMs: 20, flushMs: 20 });
    await watch.start();
    const streamed: SessionRow[] = [];
    watch.on((ev) => {
      if (ev.type === 'rows') streamed.push(...ev.rows);
    });
    appendFileSync(path, text);
    await waitFor(() => streamed.length === records.length, 10_000, 'every record as a row');
    expect(streamed.map((r) => r.s)).toEqual(records.map((r) => r.seq));
    expect(streamed.map((r) => r.t)).toEqual(records.map((r) => r.time - records[0]!.time));
    expect(survivingSecrets(JSON.stringify(streamed))).toEqual([]);
    // what /api/rows serves for the same session, read from the log afterwards
    let history = '';
    for await (const chunk of sessionRowLines(path, records[0]!.session, plantedRedactOptions)) history += chunk;
    expect(history.trim().split('\n').map((l) => JSON.parse(l) as SessionRow)).toEqual(streamed);
  });
});
