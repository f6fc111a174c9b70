import { ClassifierError } from './errors.js';

/** A typed array section of a saved model. */
export type Section =
  { readonly type: 'f32'; readonly data: Float32Array } | { readonly type: 'i8'; readonly data: Int8Array };

export interface SectionEntry {
  readonly type: Section['type'];
  readonly length: number;
}

const MAGIC = 'PARLEYIC';
const PREFIX = 16;

/** MAGIC, format version, header length, the JSON header, then 4-byte aligned array sections. */
export function writeSections(version: number, header: object, sections: readonly Section[]): Uint8Array {
  const entries: SectionEntry[] = sections.map((section) => ({
    type: section.type,
    length: section.data.length,
  }));
  const json = new TextEncoder().encode(JSON.stringify({ ...header, sections: entries }));
  let size = align(PREFIX + json.length);
  const offsets = sections.map((section) => {
    const at = size;
    size = align(size + section.data.byteLength);
    return at;
  });
  const bytes = new Uint8Array(size);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  const view = new DataView(bytes.buffer);
  view.setUint32(8, version, true);
  view.setUint32(12, json.length, true);
  bytes.set(json, PREFIX);
  sections.forEach((section, at) => {
    const raw = new Uint8Array(section.data.buffer, section.data.byteOffset, section.data.byteLength);
    bytes.set(raw, offsets[at] as number);
  });
  return bytes;
}

export interface ReadModel {
  readonly header: Record<string, unknown>;
  readonly sections: Section[];
}

export function readSections(bytes: Uint8Array, version: number): ReadModel {
  if (bytes.length < PREFIX || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC)
    throw new ClassifierError('NLU_BAD_MODEL', 'Not a Parley intent classifier model.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = view.getUint32(8, true);
  if (found !== version)
    throw new ClassifierError(
      'NLU_BAD_MODEL',
      `Model format ${found} is not supported (expected ${version}).`,
    );
  const length = view.getUint32(12, true);
  const header = parseHeader(bytes.subarray(PREFIX, PREFIX + length));
  const entries = Array.isArray(header['sections']) ? header['sections'] : [];
  let at = align(PREFIX + length);
  const sections = entries.map((entry: unknown) => {
    const section = readSection(bytes, at, entry);
    at = align(at + section.data.byteLength);
    return section;
  });
  return { header, sections };
}

function readSection(bytes: Uint8Array, at: number, entry: unknown): Section {
  if (
    !isRecord(entry) ||
    typeof entry['length'] !== 'number' ||
    (entry['type'] !== 'f32' && entry['type'] !== 'i8')
  )
    throw new ClassifierError('NLU_BAD_MODEL', 'The model has a malformed section entry.');
  const width = entry['type'] === 'f32' ? 4 : 1;
  const byteLength = entry['length'] * width;
  if (at + byteLength > bytes.length)
    throw new ClassifierError('NLU_BAD_MODEL', 'The model file is truncated.');
  // A copy, aligned at offset 0. Not `bytes.slice()`: on a Node Buffer that is a view of the same memory.
  const copy = new Uint8Array(bytes.subarray(at, at + byteLength));
  return entry['type'] === 'f32'
    ? { type: 'f32', data: new Float32Array(copy.buffer, 0, entry['length']) }
    : { type: 'i8', data: new Int8Array(copy.buffer, 0, entry['length']) };
}

function parseHeader(raw: Uint8Array): Record<string, unknown> {
  try {
    const header: unknown = JSON.parse(new TextDecoder().decode(raw));
    if (isRecord(header)) return header;
  } catch (error) {
    throw new ClassifierError('NLU_BAD_MODEL', 'The model header is not valid JSON.', { cause: error });
  }
  throw new ClassifierError('NLU_BAD_MODEL', 'The model header is not an object.');
}

function align(size: number): number {
  return Math.ceil(size / 4) * 4;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
