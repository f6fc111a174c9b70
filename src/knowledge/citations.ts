/**
 * Tidies the citations of an LLM answer the way Rasa does with `citation_enabled`: the sources cited
 * in the text are renumbered 1, 2, ... in the order they are first cited, groups like `[3, 1]` are
 * sorted, citations of sources missing from the `Sources:` list are dropped, and the list is reordered
 * (cited sources first, then uncited numbered ones, then any other lines).
 */
const CITATION = /\[([^\]]+)\]/gu;
const SOURCE_LINE = /^\s*\[(\d+)\](.*)$/u;

export function postProcessCitations(answer: string): string {
  const at = answer.lastIndexOf('Sources:');
  if (at < 0) return answer.trim();
  const { numbered, others } = parseSources(answer.slice(at + 'Sources:'.length));
  const body = answer.slice(0, at);
  const order = citedOrder(body, numbered);
  const renumber = new Map(order.map((old, index) => [old, index + 1]));
  const text = rewrite(body, renumber);
  const sources = [
    ...order.map((old) => (numbered.get(old) ?? '').replace(`[${old}]`, `[${renumber.get(old) ?? old}]`)),
    ...[...numbered.entries()]
      .filter(([old]) => !renumber.has(old))
      .sort(([a], [b]) => a - b)
      .map(([, line]) => line),
    ...others,
  ];
  return sources.length > 0 ? `${text}\nSources:\n${sources.join('\n')}` : text;
}

function parseSources(block: string): { numbered: Map<number, string>; others: string[] } {
  const numbered = new Map<number, string>();
  const others: string[] = [];
  for (const raw of block.trim().split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const match = SOURCE_LINE.exec(line);
    if (match) numbered.set(Number(match[1]), line);
    else others.push(line);
  }
  return { numbered, others };
}

function citedOrder(body: string, sources: ReadonlyMap<number, string>): number[] {
  const order: number[] = [];
  for (const match of body.matchAll(CITATION))
    for (const number of numbersIn(match[1] ?? ''))
      if (sources.has(number) && !order.includes(number)) order.push(number);
  return order;
}

function rewrite(body: string, renumber: ReadonlyMap<number, number>): string {
  const replaced = body.replace(CITATION, (_whole, inner: string) => {
    const numbers = [...new Set(numbersIn(inner).flatMap((old) => renumber.get(old) ?? []))];
    return numbers.length > 0 ? `[${numbers.sort((a, b) => a - b).join(', ')}]` : '';
  });
  return replaced
    .replace(/\s+([,.?])/gu, '$1')
    .replace(/\s+/gu, ' ')
    .trim();
}

function numbersIn(inner: string): number[] {
  return inner
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^\d+$/u.test(part))
    .map(Number);
}
