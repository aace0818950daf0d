/** The live page's stylesheet: the session view's (src/session-view/style.ts) and the page around it. Inlined; the CSP allows exactly this text by its hash. */
import { VIEW_CSS } from '../session-view/style.js';

const PAGE = `
body{margin:0;font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--text);background:var(--bg)}
code,pre{font-family:var(--mono);font-size:12.5px}
.top{display:flex;gap:16px;align-items:center;padding:8px 16px;background:#111827;color:#f9fafb}
.top h1{font-size:16px;margin:0}
.conn{font-size:12px;padding:2px 8px;border-radius:10px;background:#374151}
.conn.on{background:#166534}.conn.off{background:#991b1b}
.top-notice{font-size:12px;color:#d1d5db;flex:1}
.reveal{font-size:12px;background:#374151;padding:3px 8px;border-radius:4px;cursor:pointer}
body.revealing .reveal{background:var(--error)}
.problems{background:#fef2f2;color:#991b1b;border-bottom:1px solid #fecaca;padding:6px 16px}
.cols{display:grid;grid-template-columns:320px minmax(0,1fr);gap:12px;padding:12px;height:calc(100vh - 44px)}
.sessions{display:flex;flex-direction:column;gap:8px;overflow:hidden}
.sessions select{width:100%}
#session-list{overflow:auto;display:flex;flex-direction:column;gap:6px}
#session-list .card{all:unset;display:block;background:var(--card);border:1px solid var(--line);border-left:4px solid var(--muted);border-radius:6px;padding:6px 8px;cursor:pointer}
#session-list .card.state-running{border-left-color:#15803d}#session-list .card.state-died{border-left-color:var(--error)}
#session-list .card.sel{outline:2px solid var(--ok)}
.card-top{display:flex;justify-content:space-between;gap:8px}
.server{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.state{font-size:11px;padding:0 6px;border-radius:8px;background:#e5e7eb;white-space:nowrap}
.s-running{background:#dcfce7;color:#166534}.s-died{background:#fee2e2;color:#991b1b}
.meta{color:var(--muted);font-size:11px}
#session-list .counts{display:flex;gap:8px;align-items:center;font-size:11px;margin-top:2px}
#session-list .bad{color:var(--error);font-weight:600}#session-list .warn{color:var(--isError);font-weight:600}
.spark{width:90px;height:20px;margin-left:auto}
.session{min-width:0;overflow:auto;padding-right:4px}
.session .panel{margin:10px 0}
.session .wf-scroll{max-height:36vh}
.session .list{max-height:none;height:56vh}
.view-head{min-height:24px}
.follow{font-size:11px;padding:1px 8px;border-radius:8px;border:1px solid var(--line);background:var(--card);cursor:pointer}
.follow.on{background:#dbeafe;color:#1e40af;border-color:#bfdbfe;cursor:default}
.skipped{font-size:11px;color:var(--isError);font-weight:600}
.empty{color:var(--muted)}
`;

export const LIVE_CSS = VIEW_CSS + PAGE;
