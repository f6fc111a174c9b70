/**
 * Parley's `configuration.result_slots`: the named slots take their values from the structured results
 * of a completed task (its data parts). A value is looked up, in each data part in order, in
 * `completed_flow.slots` (what a Parley or Rasa A2A server reports for the flow it completed), then in
 * `slots` (a map, or Rasa's list of `{name, value}`), then among the part's own keys. A slot no part
 * names is left as it is.
 */
export function resultSlotValues(
  data: readonly unknown[],
  names: readonly string[],
): { name: string; value: unknown }[] {
  const found = new Map<string, unknown>();
  for (const part of data) {
    for (const source of sourcesOf(part)) {
      for (const name of names)
        if (!found.has(name) && Object.hasOwn(source, name)) found.set(name, source[name]);
    }
  }
  return names.filter((name) => found.has(name)).map((name) => ({ name, value: found.get(name) }));
}

function sourcesOf(part: unknown): Record<string, unknown>[] {
  if (!isRecord(part)) return [];
  const sources: Record<string, unknown>[] = [];
  const completed = part['completed_flow'];
  if (isRecord(completed) && isRecord(completed['slots'])) sources.push(completed['slots']);
  const slots = part['slots'];
  if (isRecord(slots)) sources.push(slots);
  if (Array.isArray(slots))
    sources.push(
      Object.fromEntries(slots.filter(isRecord).map((item) => [String(item['name']), item['value']])),
    );
  sources.push(part);
  return sources;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
