/**
 * The session view's stylesheet, the same in the HTML report and the live UI (each page adds its own
 * around it): outcome colours shared by bars, pills and the legend; the waterfall, the tooltip, the
 * filters, the list and its bodies. No url(), no @import: nothing to fetch.
 */
export const VIEW_CSS = String.raw`
:root {
  --bg: #f4f6f9; --card: #ffffff; --line: #d5dbe3; --line2: #e8ecf1; --text: #111827; --muted: #4b5563;
  --mono: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace;
  --ok: #2563eb; --error: #dc2626; --isError: #d97706; --cancelled: #6b7280; --unanswered: #7c3aed;
  --notif: #0f766e; --stderr: #475569; --event: #111827; --sel: #fde68a; --cancel: #b91c1c;
  --label-w: 340px;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
.pill { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px; font-weight: 600; line-height: 18px; white-space: nowrap; }
.pill.o-ok { background: #dbeafe; color: #1e3a8a; }
.pill.o-error { background: #fee2e2; color: #991b1b; }
.pill.o-isError { background: #fef3c7; color: #92400e; }
.pill.o-cancelled { background: #e5e7eb; color: #374151; }
.pill.o-unanswered { background: #ede9fe; color: #5b21b6; }
.pill.o-refused { background: #f1f5f9; color: #475569; }
.pill.o-running { background: #ccfbf1; color: #115e59; }
.panel { background: var(--card); border: 1px solid var(--line); border-radius: 8px; margin: 14px 0; box-shadow: 0 1px 2px rgba(17,24,39,.05); }
.panel-head { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 18px; padding: 10px 14px; border-bottom: 1px solid var(--line2); }
.panel-head h2 { font-size: 16px; margin: 0; font-weight: 650; }
.view-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; }
.view-head h2 { font-size: 16px; margin: 0; font-weight: 650; }
.view-head .sid { font-family: var(--mono); font-size: 12px; color: var(--muted); }
.view-head .figures { color: var(--muted); font-size: 13px; font-variant-numeric: tabular-nums; }
/* legend */
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12.5px; color: var(--text); align-items: center; order: 3; flex: 1 1 100%; }
.legend span { display: inline-flex; align-items: center; gap: 5px; white-space: nowrap; }
.sw { display: inline-block; width: 22px; height: 11px; border-radius: 2px; }
.sw.tick { width: 3px; height: 14px; border-radius: 0; }
.sw.pmk { width: 12px; height: 11px; background: var(--ok); position: relative; }
.sw.pmk::after { content: ""; position: absolute; left: 4px; top: -3px; bottom: -3px; width: 2px; background: var(--event); outline: 1px solid #fff; }
.sw.cmk { width: 12px; height: 11px; background: var(--ok); position: relative; }
.sw.cmk::after { content: ""; position: absolute; left: 5px; top: -3px; bottom: -3px; width: 3px; background: var(--cancel); outline: 1px solid #fff; }
.sw.tsk { background: var(--ok); background-image: repeating-linear-gradient(90deg, rgba(255,255,255,.6) 0 2px, transparent 2px 5px); }
.sw.t-notif { background: var(--notif); }
.sw.t-stderr { background: var(--stderr); }
.sw.t-invalid { background: var(--error); }
.sw.t-event { background: var(--event); }
.o-ok { background: var(--ok); }
.o-error { background: var(--error); }
.o-isError { background: var(--isError); }
.o-cancelled { background: repeating-linear-gradient(135deg, #6b7280 0 5px, #9ca3af 5px 8px); }
.o-unanswered { background: repeating-linear-gradient(45deg, #7c3aed 0 6px, #a78bfa 6px 10px); }
.o-refused { background: #94a3b8; }
.o-running { background: repeating-linear-gradient(45deg, #0d9488 0 6px, #5eead4 6px 10px); }
.zoom { margin-left: auto; display: flex; gap: 6px; align-items: center; font-size: 13px; }
.zoom .range { color: var(--muted); font-variant-numeric: tabular-nums; margin-right: 6px; }
button { font: inherit; font-size: 13px; padding: 3px 10px; border: 1px solid #b8c1cc; background: #fff; border-radius: 5px; color: var(--text); cursor: pointer; }
button:hover { background: #eef2f7; }
button:disabled { color: #9ca3af; cursor: default; background: #fff; }
/* waterfall */
.wf { position: relative; user-select: none; }
.wf-row { display: flex; align-items: stretch; }
.wf-label { width: var(--label-w); flex: 0 0 var(--label-w); padding: 0 10px 0 14px; font-size: 12px; color: var(--muted); display: flex; align-items: center; border-right: 1px solid var(--line); overflow: hidden; white-space: nowrap; }
.wf-track { position: relative; flex: 1 1 auto; min-width: 0; }
.wf-track canvas { display: block; width: 100%; }
.wf-ov .wf-track { cursor: crosshair; }
.wf-axis { border-bottom: 1px solid var(--line); }
.wf-axis .wf-track { cursor: col-resize; }
.brush { position: absolute; top: 0; bottom: 0; background: rgba(37,99,235,.18); border-left: 1px solid var(--ok); border-right: 1px solid var(--ok); pointer-events: none; }
.lane { border-bottom: 1px solid var(--line2); }
.lane .wf-label { font-weight: 500; color: var(--text); }
.wf-scroll { position: relative; overflow-y: auto; overflow-x: hidden; max-height: 62vh; min-height: 48px; }
.wf-spacer { position: relative; }
.wf-holder { position: relative; }
.wf-grid { position: absolute; top: 0; bottom: 0; left: var(--label-w); right: 0; pointer-events: none; }
.wf-grid i { position: absolute; top: 0; bottom: 0; width: 1px; background: var(--line2); }
.wrow { position: absolute; left: 0; right: 0; height: 24px; display: flex; }
.wrow:nth-child(even) { background: rgba(241,244,248,.55); }
.wrow:hover, .wrow.sel { background: rgba(253,230,138,.45); }
.wrow .wf-label { font-size: 12.5px; color: var(--text); gap: 6px; cursor: pointer; }
.wlabel-dir { color: var(--muted); width: 12px; flex: 0 0 12px; text-align: center; }
.wlabel-m { font-family: var(--mono); font-size: 12px; font-weight: 600; }
.wlabel-t { font-family: var(--mono); font-size: 12px; color: #1f2937; overflow: hidden; text-overflow: ellipsis; }
.wlabel-s { margin-left: auto; color: var(--muted); font-size: 11.5px; font-variant-numeric: tabular-nums; padding-left: 6px; }
.bar { position: absolute; top: 5px; height: 14px; border-radius: 3px; min-width: 2px; cursor: pointer; }
.bar.sel { outline: 2px solid var(--event); outline-offset: 1px; }
.bar .pm { position: absolute; top: -3px; bottom: -3px; width: 2px; margin-left: -1px; background: var(--event); outline: 1px solid #fff; pointer-events: none; }
.bar .cm { position: absolute; top: -4px; bottom: -4px; width: 3px; margin-left: -1px; background: var(--cancel); outline: 1px solid #fff; pointer-events: none; }
.bar .task-span { position: absolute; top: 2px; bottom: 2px; border-radius: 2px; background: repeating-linear-gradient(90deg, rgba(255,255,255,.6) 0 2px, transparent 2px 5px); pointer-events: none; }
.lat { position: absolute; top: 4px; font-size: 11.5px; line-height: 16px; white-space: nowrap; color: var(--text); font-variant-numeric: tabular-nums; pointer-events: none; }
.lat.in { color: #fff; font-weight: 600; }
.wf-empty { padding: 14px; color: var(--muted); }
.wf-help { padding: 6px 14px 8px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line2); }
/* tooltip */
.tip { position: fixed; z-index: 10; max-width: 460px; background: #111827; color: #f9fafb; border-radius: 6px; padding: 8px 10px; font-size: 12.5px; line-height: 1.45; box-shadow: 0 6px 20px rgba(0,0,0,.25); pointer-events: none; }
.tip b { font-family: var(--mono); font-weight: 650; }
.tip .tgt { font-family: var(--mono); color: #fde68a; }
.tip .muted { color: #cbd5e1; }
.tip .err { color: #fecaca; }
.tip .pill { margin-right: 4px; }
/* filters and list */
.filters { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; font-size: 13px; }
.filters select, .filters input[type=search] { font: inherit; font-size: 13px; padding: 3px 6px; border: 1px solid #b8c1cc; border-radius: 5px; background: #fff; color: var(--text); }
.filters input[type=search] { width: 240px; }
.filters label { display: inline-flex; gap: 4px; align-items: center; }
.count { color: var(--muted); margin-left: auto; font-variant-numeric: tabular-nums; }
.list { position: relative; overflow-y: auto; max-height: 75vh; min-height: 60px; }
.list-spacer { position: relative; }
.lrow { position: absolute; left: 0; right: 0; border-bottom: 1px solid var(--line2); }
.lhead { display: grid; grid-template-columns: 86px 58px 22px 104px minmax(160px, 1fr) 90px minmax(150px, 300px) 72px; gap: 0 8px; align-items: center; height: 26px; padding: 0 12px; cursor: pointer; font-size: 13px; white-space: nowrap; }
.lhead > * { overflow: hidden; text-overflow: ellipsis; }
.lrow:hover .lhead { background: #f1f5f9; }
.lrow.sel .lhead { background: var(--sel); }
.lrow.open .lhead { background: #eef2ff; }
.lrow.bad .lhead { box-shadow: inset 3px 0 0 var(--error); }
.c-t, .c-s, .c-b { font-variant-numeric: tabular-nums; color: var(--muted); font-size: 12px; }
.c-s, .c-b { text-align: right; }
.c-d { color: var(--muted); text-align: center; }
.c-m { font-family: var(--mono); font-size: 12.5px; }
.c-m .tg { color: #374151; margin-left: 6px; }
.c-m .rawtxt { color: #1f2937; }
.c-i { font-family: var(--mono); font-size: 12px; color: #374151; }
.c-x { font-size: 12.5px; }
.k { display: inline-block; font-size: 11.5px; font-weight: 600; padding: 0 6px; border-radius: 4px; line-height: 17px; border: 1px solid transparent; }
.k-request { background: #e0e7ff; color: #312e81; }
.k-response { background: #dcfce7; color: #14532d; }
.k-error { background: #fee2e2; color: #991b1b; }
.k-notification { background: #ccfbf1; color: #134e4a; }
.k-batch { background: #e0f2fe; color: #0c4a6e; }
.k-invalid { background: #fecaca; color: #7f1d1d; border-color: #f87171; }
.k-stderr { background: #e5e7eb; color: #1f2937; }
.k-event { background: #f3f4f6; color: #374151; border-color: #d1d5db; }
.note-b { display: inline-block; background: #fef3c7; color: #92400e; border-radius: 4px; padding: 0 5px; font-size: 11.5px; font-weight: 600; margin-left: 6px; }
.ldetail { padding: 6px 12px 12px 40px; background: #fbfcfe; border-top: 1px dashed var(--line2); }
.ldetail .links { font-size: 13px; margin: 2px 0 6px; color: var(--muted); }
.ldetail .links a { margin-right: 10px; }
.ldetail .notes { margin: 4px 0 8px; padding: 6px 10px; background: #fffbeb; border-left: 3px solid var(--isError); font-size: 13px; }
.ldetail .notes div { margin: 2px 0; }
.ldetail .items { font-size: 12.5px; margin: 4px 0 8px; }
.ldetail .items td, .ldetail .items th { padding: 1px 10px 1px 0; text-align: left; }
.ldetail .short { font-size: 12px; color: #92400e; margin: 4px 0; }
.ldetail a { color: #1d4ed8; }
.body-head { font-size: 12.5px; margin: 2px 0 4px; color: var(--muted); }
.body-head.err { color: #991b1b; }
.body-head .redacted { color: #15803d; }
.body-head .revealed { color: #b91c1c; font-weight: 600; }
pre.body { margin: 0; padding: 8px 10px; background: #f8fafc; border: 1px solid var(--line2); border-radius: 5px; max-height: 420px; overflow: auto; white-space: pre-wrap; word-break: break-word; color: #1f2937; }
.j-k { color: #1e3a8a; }
.j-s { color: #166534; }
.j-n { color: #9a3412; }
.j-l { color: #7c2d12; font-weight: 600; }
.flash { animation: flash 1.2s ease-out; }
@keyframes flash { from { background: #fde047; } to { background: transparent; } }
`;
