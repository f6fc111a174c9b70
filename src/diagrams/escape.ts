/**
 * Text for SVG and HTML. Flow ids, step ids, slot names and conditions come from YAML authors, so
 * every one of them passes through here before it reaches markup.
 */
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// Characters XML 1.0 does not allow at all (a document holding one does not parse), and lone surrogates.
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Escapes `& < > " '` and replaces characters XML cannot hold, for text and attribute values alike. */
export function escapeMarkup(text: string): string {
  return text.replace(NOT_XML, '\ufffd').replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** Cuts a label to `max` characters (an ellipsis marks the cut); the full text goes in a tooltip. */
export function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(oneLine);
  return chars.length <= max ? oneLine : `${chars.slice(0, max - 1).join('')}…`;
}
