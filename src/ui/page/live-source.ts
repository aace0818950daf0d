/**
 * The live UI's body source for the session view: a row's body is fetched from the log when it is
 * opened, redacted like export unless the person chose to reveal secrets (this tab only). Browser code.
 */
import { eventBody } from '../../session-view/row.js';
import type { BodySource, BodyText } from '../../session-view/page/source.js';
import { vis } from '../../session-view/text.js';
import { fetchBody } from './api.js';

export class LiveBodies implements BodySource {
  /** Show bodies as logged, secrets included. */
  reveal = false;
  /** The session shown: its log and id. */
  session: { log: number; session: string } | null = null;

  async body(row: { s: number }): Promise<BodyText> {
    const s = this.session;
    if (!s) throw new Error('no session');
    const answer = await fetchBody(s.log, s.session, row.s, this.reveal);
    const r = answer.record as Record<string, unknown> & { msg?: unknown; raw?: unknown; kind?: unknown };
    // the message itself, the raw line, or what an event says
    const body = r.msg !== undefined ? r.msg : typeof r.raw === 'string' ? r.raw : eventBody(r);
    return {
      text: vis(typeof body === 'string' ? body : JSON.stringify(body, null, 2)),
      json: typeof body !== 'string',
      head: answer.redacted
        ? { text: 'redacted like export: secrets read [REDACTED:\u2026]', cls: 'redacted' }
        : { text: 'REVEALED: as logged, secrets included (this tab only)', cls: 'revealed' },
    };
  }
}
