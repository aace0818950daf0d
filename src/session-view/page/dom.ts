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
