/** DOM helpers shared by the report and the live page: element creation and text made safe to show. Browser code. */

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

const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Control and bidi characters made visible (a log may hold anything a server printed). */
export function vis(s: string): string {
  return s.replace(UNSAFE, (ch) => {
    const c = ch.charCodeAt(0);
    return c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
  });
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
