import { CORE_SCHEMA, load } from 'js-yaml';
import { ClassifierError } from './errors.js';

/** One labelled utterance. */
export interface LabelledExample {
  readonly text: string;
  readonly intent: string;
}

const TEXT_COLUMNS = ['text', 'utterance', 'sentence', 'query'];
const LABEL_COLUMNS = ['category', 'intent', 'label'];
const ANNOTATION = /\[([^\]]+)\](?:\([^)]+\)|\{[^}]*\})/g;

/** CSV with a header naming a text column (`text`) and a label column (`category` or `intent`). */
export function readCsvExamples(content: string, file = 'CSV'): LabelledExample[] {
  const [header, ...rows] = parseCsv(content);
  const names = (header ?? []).map((name) => name.trim().toLowerCase());
  const textAt = names.findIndex((name) => TEXT_COLUMNS.includes(name));
  const labelAt = names.findIndex((name) => LABEL_COLUMNS.includes(name));
  if (textAt < 0 || labelAt < 0)
    throw new ClassifierError(
      'NLU_BAD_DATA_FILE',
      `${file}: the header must name a text column (text) and a label column (category or intent).`,
    );
  return rows
    .filter((row) => row.some((cell) => cell.trim() !== ''))
    .map((row) => ({ text: oneLine(row[textAt] ?? ''), intent: (row[labelAt] ?? '').trim() }))
    .filter((example) => example.text !== '' && example.intent !== '');
}

/** RFC 4180: quoted fields may hold commas, line breaks and doubled quotes. */
export function parseCsv(content: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at] as string;
    if (quoted) {
      if (char !== '"') cell += char;
      else if (text[at + 1] === '"') [cell, at] = [cell + '"', at + 1];
      else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ',') [row, cell] = [[...row, cell], ''];
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[at + 1] === '\n') at += 1;
      rows.push([...row, cell]);
      [row, cell] = [[], ''];
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The intent examples of a Rasa `nlu.yml` (entity markup reduced to its text). */
export function readNluYamlExamples(content: string, file = 'nlu.yml'): LabelledExample[] {
  let data: unknown;
  try {
    data = load(content, { schema: CORE_SCHEMA });
  } catch (error) {
    // a file of only comments holds no document: no examples, as in Rasa
    if (content.split('\n').every((line) => /^\s*(?:#.*)?$/.test(line))) return [];
    throw new ClassifierError('NLU_BAD_DATA_FILE', `${file}: not valid YAML.`, { cause: error });
  }
  const items = isRecord(data) && Array.isArray(data['nlu']) ? data['nlu'] : [];
  return items.flatMap((item) => {
    if (!isRecord(item) || typeof item['intent'] !== 'string') return [];
    const intent = item['intent'];
    return exampleTexts(item['examples']).map((text) => ({ text, intent }));
  });
}

/** `examples` is a block string of `- example` lines, or a list of strings or `{text}` records. */
function exampleTexts(raw: unknown): string[] {
  const lines = Array.isArray(raw)
    ? raw.map((item) => (isRecord(item) ? String(item['text'] ?? '') : String(item)))
    : typeof raw === 'string'
      ? raw
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line.startsWith('- '))
          .map((line) => line.slice(2))
      : [];
  return lines.map((line) => oneLine(line.replace(ANNOTATION, '$1'))).filter((line) => line !== '');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
