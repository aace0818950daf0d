/**
 * The HTML report's script, bundled by esbuild (scripts/build-page.mjs) and inlined into the report (no
 * modules, no network at run time): reads the JSON data block and hands a session's rows to the session
 * view (src/session-view/page), whose bodies are the ones the rows carry. A picker switches sessions.
 * Browser code, type-checked with tsconfig.page.json.
 */
import { $ } from '../../session-view/page/dom.js';
import { SessionView } from '../../session-view/page/session-view.js';
import type { BodySource } from '../../session-view/page/source.js';
import { bodyText } from '../../session-view/text.js';
import type { ReportData } from './report-types.js';

const DATA = JSON.parse($('#report-data').textContent ?? '{}') as ReportData;

/** The embedded source: every row carries its body. */
const embedded: BodySource = { body: (r) => ({ text: bodyText(r), json: r.yt !== 't' }) };

const view = new SessionView(embedded, { follow: false, redrawMs: 0 });
let current = -1;

function loadSession(i: number): void {
  const s = DATA.sessions[i]!;
  current = i;
  document.querySelectorAll<HTMLElement>('.session-head').forEach((h) => {
    h.hidden = h.getAttribute('data-session') !== String(i);
  });
  view.open({ id: s.id, name: s.name, origin: s.origin, duration: s.duration }, s.rows, false);
}

function init(): void {
  const pick = document.querySelector<HTMLSelectElement>('#session-pick');
  if (pick) pick.addEventListener('change', () => loadSession(Number(pick.value)));
  if (DATA.sessions.length === 0) {
    $('#wf-body').textContent = 'The log holds no records for this session.';
    return;
  }
  loadSession(0);
}

/** The view's API for tests and for people poking at the page from the console, and the data. */
const api = {
  ...view.api,
  ready: false,
  data: DATA,
  session: (i?: number) => {
    if (i !== undefined) loadSession(i);
    return DATA.sessions[current]?.id ?? null;
  },
};
(window as unknown as { __report: typeof api; __view: typeof view.api }).__report = api;
(window as unknown as { __view: typeof view.api }).__view = view.api;
init();
api.ready = true;
