/**
 * The session's head line: its name, its id and the figures that grow with its rows (messages,
 * requests, errors, findings, what is still open), with room for what the page adds around them (the
 * live UI: the session's state, following, rows skipped). Browser code.
 */
import type { SessionFold } from '../fold.js';
import type { SessionInfo } from '../row.js';
import { figuresText, vis } from '../text.js';
import { el } from './dom.js';

/** What a page adds to the head: before the title, after the figures, and instead of them with no session. */
export interface HeadParts {
  lead(): Node[];
  tail(): Node[];
  empty(): Node[];
}

const NONE: HeadParts = { lead: () => [], tail: () => [], empty: () => [] };

export class SessionHead {
  parts: HeadParts = NONE;

  constructor(private readonly root: HTMLElement) {}

  render(info: SessionInfo | null, fold: SessionFold | null): void {
    const root = this.root;
    root.textContent = '';
    if (!info || !fold) {
      for (const n of this.parts.empty()) root.appendChild(n);
      return;
    }
    for (const n of this.parts.lead()) root.appendChild(n);
    root.appendChild(el('h2', undefined, vis(info.name)));
    root.appendChild(el('span', 'sid', vis(info.id)));
    const figures = el('span', 'figures', figuresText(fold));
    figures.title = 'errors: error answers (not refused discovery probes) and isError results; findings: notes on the records; unanswered: requests without an answer (yet)';
    root.appendChild(figures);
    for (const n of this.parts.tail()) root.appendChild(n);
  }
}
