/**
 * The markup the session view draws into, the same in the HTML report and the live UI: the head line,
 * the waterfall panel with its legend and zoom buttons, the messages panel with its filters and list,
 * and the tooltip. No inline style attributes (the live UI's CSP allows none). Pure.
 */

function legend(): string {
  const sw = (cls: string, label: string) => `<span><i class="sw ${cls}"></i>${label}</span>`;
  return [
    '<div class="legend" aria-label="Legend">',
    sw('o-ok', 'ok'),
    sw('o-error', 'error'),
    sw('o-isError', 'isError (tool failed)'),
    sw('o-cancelled', 'cancelled'),
    sw('o-unanswered', 'no answer'),
    sw('o-refused', 'refused probe (fallback)'),
    sw('o-running', 'task still running'),
    sw('pmk', 'progress'),
    sw('cmk', 'cancel sent'),
    sw('tsk', 'task'),
    sw('tick t-notif', 'notification'),
    sw('tick t-stderr', 'stderr'),
    sw('tick t-invalid', 'invalid line'),
    sw('tick t-event', 'mcp-tap event'),
    '</div>',
  ].join('');
}

const OUTCOMES = [
  ['', 'Any outcome'],
  ['ok', 'ok'],
  ['error', 'error'],
  ['isError', 'isError (tool failed)'],
  ['cancelled', 'cancelled'],
  ['unanswered', 'no answer'],
  ['refused', 'refused probe'],
  ['running', 'task running'],
];

const filters = (search: string) => `<div class="filters">
<select id="f-method" aria-label="Method or tool"></select>
<select id="f-dir" aria-label="Direction"><option value="">Both directions</option><option value="c">client → server</option><option value="s">server → client</option><option value="p">mcp-tap events</option></select>
<select id="f-kind" aria-label="Kind"></select>
<select id="f-outcome" aria-label="Outcome">${OUTCOMES.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select>
<select id="f-finding" aria-label="Finding"></select>
<label><input type="checkbox" id="f-err"> errors only</label>
<input type="search" id="f-text" placeholder="${search}" aria-label="Search text">
<label title="When the waterfall is zoomed, list only the messages of its time range"><input type="checkbox" id="f-range" checked> only the zoomed range</label>
<span class="count" id="f-count"></span>
</div>`;

/**
 * The view's markup. `waiting`: what the waterfall says before the script draws (the report: that it
 * needs JavaScript); `bodies`: whether the rows carry their bodies, so the text search reads them.
 */
export function sessionViewHtml(opts: { waiting?: string; bodies: boolean }): string {
  const search = opts.bodies ? 'Search methods, ids, findings, bodies…' : 'Search methods, targets, ids, findings…';
  return `<div id="session-head" class="view-head"></div>
<section class="panel" id="waterfall"><div class="panel-head"><h2>Waterfall</h2>${legend()}<div class="zoom"><span class="range" id="wf-range"></span><button id="z-in" type="button">Zoom in</button><button id="z-out" type="button">Zoom out</button><button id="z-all" type="button">Whole session</button></div></div>
<div id="wf-body">${opts.waiting ?? ''}</div></section>
<section class="panel" id="messages"><div class="panel-head"><h2>Messages</h2>${filters(search)}</div>
<div class="list" id="list"><div class="list-spacer" id="list-spacer"></div></div></section>
<div class="tip" id="tip" hidden></div>`;
}
