/** The live page's stylesheet (inlined; the CSP allows exactly this text by its hash). */
export const LIVE_CSS = `
:root{--fg:#111827;--muted:#6b7280;--line:#e5e7eb;--bg:#f3f4f6;--card:#fff;--blue:#2563eb;--red:#dc2626;--amber:#d97706;--green:#15803d}
*{box-sizing:border-box}
body{margin:0;font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:var(--bg)}
[hidden]{display:none!important}
.top{display:flex;gap:16px;align-items:center;padding:8px 16px;background:#111827;color:#f9fafb}
.top h1{font-size:16px;margin:0}
.conn{font-size:12px;padding:2px 8px;border-radius:10px;background:#374151}
.conn.on{background:#166534}.conn.off{background:#991b1b}
.notice{font-size:12px;color:#d1d5db;flex:1}
.reveal{font-size:12px;background:#374151;padding:3px 8px;border-radius:4px;cursor:pointer}
body.revealing .reveal{background:var(--red)}
.problems{background:#fef2f2;color:#991b1b;border-bottom:1px solid #fecaca;padding:6px 16px}
.cols{display:grid;grid-template-columns:320px 1fr;gap:12px;padding:12px;height:calc(100vh - 44px)}
.sessions{display:flex;flex-direction:column;gap:8px;overflow:hidden}
.sessions select{width:100%}
#session-list{overflow:auto;display:flex;flex-direction:column;gap:6px}
.card{all:unset;display:block;background:var(--card);border:1px solid var(--line);border-left:4px solid var(--muted);border-radius:6px;padding:6px 8px;cursor:pointer}
.card.state-running{border-left-color:var(--green)}.card.state-died{border-left-color:var(--red)}
.card.sel{outline:2px solid var(--blue)}
.card-top{display:flex;justify-content:space-between;gap:8px}
.server{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.state{font-size:11px;padding:0 6px;border-radius:8px;background:#e5e7eb;white-space:nowrap}
.s-running{background:#dcfce7;color:#166534}.s-died{background:#fee2e2;color:#991b1b}
.meta{color:var(--muted);font-size:11px}
.counts{display:flex;gap:8px;align-items:center;font-size:11px;margin-top:2px}
.bad{color:var(--red);font-weight:600}.warn{color:var(--amber);font-weight:600}
.spark{width:90px;height:20px;margin-left:auto}
.session{display:flex;flex-direction:column;gap:8px;min-width:0;overflow:hidden}
.session-head{display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
.session-head h2{font-size:15px;margin:0}
.follow{font-size:11px;padding:1px 8px;border-radius:8px;border:1px solid var(--line);background:var(--card);cursor:pointer}
.skipped{font-size:11px;color:var(--amber);font-weight:600}
.follow.on{background:#dbeafe;color:#1e40af;border-color:#bfdbfe;cursor:default}
#waterfall{width:100%;height:140px;background:#f8fafc;border:1px solid var(--line);border-radius:6px}
.filters{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.count{color:var(--muted)}
.list{position:relative;flex:1;min-height:160px;overflow:auto;background:var(--card);border:1px solid var(--line);border-radius:6px}
.list-spacer{position:relative}
.lrow{position:absolute;left:0;right:0;height:24px;display:grid;grid-template-columns:92px 56px 18px 92px minmax(0,1fr) 110px 150px 70px;gap:6px;align-items:center;padding:0 8px;border-bottom:1px solid #f3f4f6;white-space:nowrap;cursor:pointer;font-variant-numeric:tabular-nums}
.lrow>span{overflow:hidden;text-overflow:ellipsis}
.lrow:hover{background:#f9fafb}.lrow.sel{background:#eff6ff}.lrow.bad{background:#fef2f2}
.c-t,.c-s,.c-b,.c-i{color:var(--muted)}
.k-request{color:var(--blue)}.k-error,.k-invalid{color:var(--red)}.k-stderr{color:#475569}.k-event{color:#7c3aed}
.tg{margin-left:6px;color:#0f766e}
.note-b{margin-left:6px;color:var(--amber)}
.o-error,.o-isError{color:var(--red)}.o-unanswered{color:#7c3aed}.o-cancelled{color:var(--muted)}
.detail{height:28%;min-height:120px;display:flex;flex-direction:column;background:var(--card);border:1px solid var(--line);border-radius:6px;overflow:hidden}
#detail-head{padding:4px 8px;border-bottom:1px solid var(--line)}
.redacted{color:var(--green)}.revealed{color:var(--red);font-weight:600}
#detail-body{margin:0;padding:8px;overflow:auto;flex:1;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-all}
.empty{color:var(--muted)}
`;
