/** Tiny DOM helpers: every text goes in through textContent, never as markup. */

type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A value as short readable text (slot values, command fields). */
export function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A two-column table of name → value rows. */
export function table(
  headers: readonly string[],
  rows: readonly (readonly Child[])[],
  testId: string,
): HTMLTableElement {
  const head = el('tr', {}, ...headers.map((header) => el('th', {}, header)));
  const body = rows.map((row) => el('tr', {}, ...row.map((cell) => el('td', {}, cell))));
  return el('table', { 'data-testid': testId }, el('thead', {}, head), el('tbody', {}, ...body));
}
