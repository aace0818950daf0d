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
 * is not taken out and put back, so a press held on it (a click in progress) survives a redraw. The
 * children that leave go first: left in place, each later node that stays would be moved in front of them.
 */
export function syncChildren(root: Node, nodes: readonly Node[]): void {
  const stay = new Set(nodes);
  for (let c: ChildNode | null = root.firstChild; c !== null; ) {
    const next: ChildNode | null = c.nextSibling;
    if (!stay.has(c)) c.remove();
    c = next;
  }
  let at: ChildNode | null = root.firstChild;
  for (const n of nodes) {
    if (at === n) at = at.nextSibling;
    else root.insertBefore(n, at);
  }
}

/** Attributes morph leaves as they are (a style goes through the CSSOM; a canvas's size is its drawing's). */
const STYLE_KEPT = new Set(['style']);
const CANVAS_KEPT = new Set(['style', 'width', 'height']);

/**
 * Makes `old` look like `fresh` (same tag, attributes, text and children) while keeping `old` and every
 * descendant whose tag still matches: a press held on an element that is redrawn (a bar whose width grows
 * with a running session) then still ends in a click. Returns the element that stays in the document.
 * Attributes, styles and text are copied, not properties: not for form controls or listeners.
 */
export function morph(old: Element, fresh: Element): Element {
  if (old.tagName !== fresh.tagName) {
    old.replaceWith(fresh);
    return fresh;
  }
  // styles through the CSSOM: the pages' CSP blocks writing a style attribute; a canvas's size is its
  // drawing's (resetting it clears what was drawn), not the markup's
  const kept = old instanceof HTMLCanvasElement ? CANVAS_KEPT : STYLE_KEPT;
  for (const a of [...old.attributes]) if (!kept.has(a.name) && !fresh.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of fresh.attributes) if (a.name !== 'style' && old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  if (old instanceof HTMLElement && fresh instanceof HTMLElement && old.style.cssText !== fresh.style.cssText) old.style.cssText = fresh.style.cssText;
  const oldKids = old.childNodes;
  const kids = [...fresh.childNodes];
  for (let i = 0; i < kids.length; i++) {
    const n = kids[i]!;
    const o = oldKids[i];
    if (o === undefined) old.appendChild(n);
    else if (o.nodeType === Node.TEXT_NODE && n.nodeType === Node.TEXT_NODE) {
      if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
    } else if (o instanceof Element && n instanceof Element) morph(o, n);
    else o.replaceWith(n);
  }
  while (oldKids.length > kids.length) old.lastChild!.remove();
  return old;
}
