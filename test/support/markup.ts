/**
 * A small, strict reader of the SVG and HTML that Parley writes: it builds the element tree and throws
 * on a tag that is not closed, closed twice or closed out of order, so a test that finds elements
 * through it also checks that the document is well formed. Not a general HTML parser.
 */
export interface MarkupElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: MarkupElement[];
  /** the text directly inside, entities decoded */
  text: string;
}

const VOID_ELEMENTS = new Set(['meta', 'link', 'br', 'hr', 'img', 'input']);
const RAW_TEXT = new Set(['style', 'script']);
const ENTITY: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    const decoded = ENTITY[name];
    if (decoded === undefined) throw new Error(`unknown entity ${whole}`);
    return decoded;
  });
}

function parseAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const pattern = /\s*([^\s=/>]+)(?:="([^"]*)")?/y;
  let rest = text.trim();
  while (rest) {
    pattern.lastIndex = 0;
    const match = pattern.exec(rest);
    if (!match?.[1]) throw new Error(`bad attributes: ${text}`);
    if (match[2]?.includes('<')) throw new Error(`unescaped < in attribute ${match[1]}`);
    attributes[match[1]] = decodeEntities(match[2] ?? '');
    rest = rest.slice(match[0].length).trim();
  }
  return attributes;
}

export function parseMarkup(source: string): MarkupElement {
  const root: MarkupElement = { name: '#root', attributes: {}, children: [], text: '' };
  const open: MarkupElement[] = [root];
  const tag =
    /<!--[\s\S]*?-->|<!DOCTYPE[^>]*>|<\?xml[^>]*\?>|<\/([a-zA-Z][\w:-]*)\s*>|<([a-zA-Z][\w:-]*)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*(\/?)>/g;
  let last = 0;
  for (let match = tag.exec(source); match; match = tag.exec(source)) {
    const current = open[open.length - 1] as MarkupElement;
    const between = source.slice(last, match.index);
    if (/[<>]/.test(between) && !RAW_TEXT.has(current.name))
      throw new Error(`stray < or > in text: ${between}`);
    current.text += RAW_TEXT.has(current.name) ? between : decodeEntities(between);
    last = tag.lastIndex;
    const [, closing, opening, attributeText, selfClosing] = match;
    if (closing) {
      if (current.name !== closing) throw new Error(`</${closing}> closes <${current.name}>`);
      open.pop();
    } else if (opening) {
      const element: MarkupElement = {
        name: opening,
        attributes: parseAttributes(attributeText ?? ''),
        children: [],
        text: '',
      };
      current.children.push(element);
      if (!selfClosing && !VOID_ELEMENTS.has(opening.toLowerCase())) open.push(element);
    }
  }
  if (open.length !== 1) throw new Error(`unclosed <${open.map((element) => element.name).join('> <')}>`);
  return root;
}

export function allElements(element: MarkupElement): MarkupElement[] {
  return [element, ...element.children.flatMap(allElements)];
}

export function classesOf(element: MarkupElement): string[] {
  return (element.attributes['class'] ?? '').split(/\s+/).filter(Boolean);
}

/** Every element with the attribute, by its value. */
export function byAttribute(root: MarkupElement, attribute: string): Map<string, MarkupElement[]> {
  const found = new Map<string, MarkupElement[]>();
  for (const element of allElements(root)) {
    const value = element.attributes[attribute];
    if (value === undefined) continue;
    found.set(value, [...(found.get(value) ?? []), element]);
  }
  return found;
}

/** The text of the element and all it holds. */
export function textContent(element: MarkupElement): string {
  return element.text + element.children.map(textContent).join('');
}
