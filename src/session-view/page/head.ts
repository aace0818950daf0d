/**
 * The session's head line: its name, its id and the figures that grow with its rows (messages,
 * requests, errors, findings, what is still open), with room for what the page adds around them (the
 * live UI: the session's state, following, rows skipped). Browser code.
 */
import type { SessionFold } from '../fold.js';
import type { SessionInfo } from '../row.js';
import { figuresText, vis } from '../text.js';
import { el, syncChildren } from './dom.js';

/** What a page adds to the head: before the title, after the figures, and instead of them with no session. */
export interface HeadParts {
  lead(): Node[];
  tail(): Node[];
  empty(): Node[];
}

const NONE: HeadParts = { lead: () => [], tail: () => [], empty: () => [] };

/**
 * Draws the head in place: the same elements keep their place while their text changes (a live session
 * redraws it with every frame of rows), so what a page adds there — buttons — stays clickable.
 */
export class SessionHead {
  parts: HeadParts = NONE;
  private readonly name = el('h2');
  private readonly sid = el('span', 'sid');
  private readonly figures = el('span', 'figures');

  constructor(private readonly root: HTMLElement) {
    this.figures.title = 'errors: error answers (not refused discovery probes) and isError results; findings: notes on the records; unanswered: requests without an answer (yet)';
  }

  render(info: SessionInfo | null, fold: SessionFold | null): void {
    if (!info || !fold) {
      syncChildren(this.root, this.parts.empty());
      return;
    }
    setText(this.name, vis(info.name));
    setText(this.sid, vis(info.id));
    setText(this.figures, figuresText(fold));
    syncChildren(this.root, [...this.parts.lead(), this.name, this.sid, this.figures, ...this.parts.tail()]);
  }
}

function setText(e: HTMLElement, text: string): void {
  if (e.textContent !== text) e.textContent = text;
}
