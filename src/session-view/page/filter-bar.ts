/**
 * The filter controls above the message list, bound to one Filter object: the choices of method (and
 * tool, prompt, resource), kind and finding come from the fold with their counts; a change tells the
 * view. Browser code.
 */
import { NO_FILTER, type Filter } from '../filter.js';
import type { SessionFold } from '../fold.js';
import { clip, vis } from '../text.js';
import { byId, option } from './dom.js';

const KIND_ORDER = ['request', 'response', 'error', 'notification', 'batch', 'invalid', 'stderr', 'event'];

export class FilterBar {
  readonly method = byId<HTMLSelectElement>('f-method');
  readonly dir = byId<HTMLSelectElement>('f-dir');
  readonly kind = byId<HTMLSelectElement>('f-kind');
  readonly outcome = byId<HTMLSelectElement>('f-outcome');
  readonly finding = byId<HTMLSelectElement>('f-finding');
  readonly err = byId<HTMLInputElement>('f-err');
  readonly text = byId<HTMLInputElement>('f-text');
  readonly range = byId<HTMLInputElement>('f-range');
  readonly count = byId('f-count');
  /** The fold's `choices` when the options were last made. */
  private made = -1;

  constructor(onChange: () => void) {
    for (const c of [this.method, this.dir, this.kind, this.outcome, this.finding, this.err, this.range]) c.addEventListener('change', onChange);
    let timer = 0;
    this.text.addEventListener('input', () => {
      clearTimeout(timer);
      timer = window.setTimeout(onChange, 160);
    });
  }

  /** The filter the controls say. */
  read(): Filter {
    return {
      method: this.method.value,
      dir: this.dir.value,
      kind: this.kind.value,
      outcome: this.outcome.value,
      finding: this.finding.value,
      err: this.err.checked,
      text: this.text.value.trim().toLowerCase(),
      range: this.range.checked,
    };
  }

  /** Sets the controls to `f`. */
  write(f: Filter): void {
    this.method.value = f.method;
    this.dir.value = f.dir;
    this.kind.value = f.kind;
    this.outcome.value = f.outcome;
    this.finding.value = f.finding;
    this.err.checked = f.err;
    this.text.value = f.text;
    this.range.checked = f.range;
  }

  /** A new session: every choice made again, nothing filtered. */
  reset(fold: SessionFold): Filter {
    this.made = -1;
    this.options(fold);
    const f = { ...NO_FILTER };
    this.write(f);
    return f;
  }

  /** Makes the choices again when the fold has new ones (a method, a kind, a finding code appeared). */
  options(fold: SessionFold): void {
    if (fold.choices === this.made) return;
    this.made = fold.choices;
    const keep = this.read();
    const fm = this.method;
    fm.textContent = '';
    option(fm, '', 'All methods');
    for (const m of [...fold.methods.keys()].sort()) {
      const c = fold.methods.get(m)!;
      option(fm, m, `${vis(m)} (${c.n})`);
      if (c.targets.size <= 100) for (const g of [...c.targets.keys()].sort()) option(fm, `${m}\u0000${g}`, `\u00a0\u00a0\u00a0${vis(clip(g, 60))} (${c.targets.get(g)})`);
    }
    const fk = this.kind;
    fk.textContent = '';
    option(fk, '', 'All kinds');
    for (const k of [...KIND_ORDER, ...[...fold.kinds.keys()].filter((k) => !KIND_ORDER.includes(k))]) {
      if (fold.kinds.has(k)) option(fk, k, `${k} (${fold.kinds.get(k)})`);
    }
    const ff = this.finding;
    ff.textContent = '';
    option(ff, '', 'Any findings or none');
    option(ff, '*', 'With findings');
    for (const [code, n] of [...fold.findings].sort()) option(ff, code, `${vis(code)} (${n})`);
    this.write(keep);
    // a choice that is gone reads as "all"
    for (const s of [fm, fk, ff]) if (s.selectedIndex < 0) s.value = '';
  }
}
