/** DOM helpers of the session view and the pages around it: elements with text set as text, never parsed as HTML. Browser code. */

/** An element with a class and text (text is always set as text, never parsed as HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string | null, text?: string | null): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

/** The element with this id; a missing one is a bug in the page, said loudly. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`page element #${id} is missing`);
  return e as T;
}

/** An <option>. */
export function option(sel: HTMLSelectElement, value: string, label: string): void {
  const o = el('option', undefined, label);
  o.value = value;
  sel.appendChild(o);
}

/** The first element matching `sel` (the report's markup is its own: a missing one is a bug). */
export function $<T extends Element = HTMLElement>(sel: string, root: ParentNode = document): T {
  const e = root.querySelector<T>(sel);
  if (!e) throw new Error(`page element ${sel} is missing`);
  return e;
}

/**
 * Makes `root`'s children exactly `nodes`, in order, moving only what is out of place: a node that stays
 * is not taken out and put back, so a press held on it (a click in progress) survives a redraw.
 */
export function syncChildren(root: Node, nodes: readonly Node[]): void {
  let at: ChildNode | null = root.firstChild;
  for (const n of nodes) {
    if (at === n) at = at.nextSibling;
    else root.insertBefore(n, at);
  }
  while (at) {
    const next: ChildNode | null = at.nextSibling;
    at.remove();
    at = next;
  }
}
