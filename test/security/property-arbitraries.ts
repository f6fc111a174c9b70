/**
 * Shared pieces of the property-based tests of the HTTP edges (JSON-RPC, REST channel, HTTP API):
 * hostile values and bodies as fast-check arbitraries, mutations of a valid body, raw requests (bytes,
 * any content type), and the invariants every run checks (no crash, no prototype pollution, no
 * changed tracker). Runs are seeded: `PARLEY_FC_SEED=<n>` replays a failure, the default is fixed;
 * `PARLEY_FC_RUNS=<n>` runs every property n times.
 */
import fc from 'fast-check';
import type { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';

export const DEFAULT_SEED = 20240611;

export function propertySeed(): number {
  const raw = process.env['PARLEY_FC_SEED'];
  const seed = raw === undefined || raw.trim() === '' ? DEFAULT_SEED : Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`PARLEY_FC_SEED must be an integer, not ${raw}`);
  return seed;
}

/** fc.assert with the suite's seed; a failure names the seed to replay it with */
export async function assertProperty(
  property: fc.IAsyncPropertyWithHooks<unknown[]> | fc.IAsyncProperty<unknown[]>,
  numRuns: number,
): Promise<void> {
  const seed = propertySeed();
  // PARLEY_FC_RUNS=<n> runs each property n times instead (a longer hunt than CI's)
  const runs = Number(process.env['PARLEY_FC_RUNS'] ?? '') || numRuns;
  try {
    await fc.assert(property, { seed, numRuns: runs, endOnFailure: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const cause =
      error instanceof Error && error.cause !== undefined ? `\ncaused by: ${describe(error.cause)}` : '';
    throw new Error(`property failed (replay with PARLEY_FC_SEED=${seed}):\n${message}${cause}`, {
      cause: error,
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// invariants

/** Records unhandled rejections and uncaught exceptions while installed. */
export class ProcessWatch {
  readonly problems: string[] = [];
  private readonly onRejection = (reason: unknown) => {
    this.problems.push(`unhandled rejection: ${describe(reason)}`);
  };
  private readonly onException = (error: unknown) => {
    this.problems.push(`uncaught exception: ${describe(error)}`);
  };

  start(): void {
    process.on('unhandledRejection', this.onRejection);
    process.on('uncaughtException', this.onException);
  }

  stop(): void {
    process.off('unhandledRejection', this.onRejection);
    process.off('uncaughtException', this.onException);
  }
}

function describe(value: unknown): string {
  return value instanceof Error ? (value.stack ?? value.message) : String(value);
}

const PROTOTYPES: readonly (readonly [string, object])[] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];
const BASELINE = new Map(PROTOTYPES.map(([name, proto]) => [name, Reflect.ownKeys(proto).map(String)]));

/** What a request changed on the built-in prototypes (empty when nothing): pollution. */
export function pollutionProblems(): string[] {
  const problems: string[] = [];
  for (const [name, proto] of PROTOTYPES) {
    const keys = Reflect.ownKeys(proto).map(String);
    const added = keys.filter((key) => !(BASELINE.get(name) ?? []).includes(key));
    if (added.length > 0) problems.push(`${name} gained ${added.join(', ')}`);
  }
  const probe: Record<string, unknown> = {};
  for (const key of ['polluted', 'isAdmin', 'x', 'a', 'role'])
    if (probe[key] !== undefined) problems.push(`({}).${key} is ${String(probe[key])}`);
  if (Object.getPrototypeOf(probe) !== Object.prototype) problems.push('({}) lost Object.prototype');
  if (probe.constructor !== Object) problems.push('({}).constructor is not Object');
  return problems;
}

/** every conversation of the store with its event count */
export async function storeCounts(store: MemoryTrackerStore): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const id of store.conversationIds()) counts.set(id, (await store.loadRecent(id)).eventCount);
  return counts;
}

/** how two store readings differ (empty when they are the same) */
export function countChanges(before: Map<string, number>, after: Map<string, number>): string[] {
  const ids = new Set([...before.keys(), ...after.keys()]);
  return [...ids].flatMap((id) =>
    before.get(id) === after.get(id)
      ? []
      : [`${JSON.stringify(id)}: ${before.get(id) ?? 'none'} -> ${after.get(id) ?? 'none'} events`],
  );
}

// ---------------------------------------------------------------------------------------------------
// raw requests

export interface RawRequest {
  readonly method: string;
  /** path and query, starting with '/' */
  readonly path: string;
  readonly body?: Buffer;
  /** undefined: no Content-Type header */
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RawAnswer {
  readonly status: number;
  readonly type: string;
  readonly text: string;
  /** the body as JSON, undefined when it is not JSON */
  readonly json: unknown;
}

export async function sendRaw(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, type: response.headers.get('content-type') ?? '', text, json };
}

/** a short description of a request for failure messages (huge bodies cut) */
export function shortly(value: unknown): string {
  const text = Buffer.isBuffer(value) ? value.toString('latin1') : JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text;
}

// ---------------------------------------------------------------------------------------------------
// hostile values

export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

export const pollutionKey: fc.Arbitrary<string> = fc.constantFrom(...POLLUTION_KEYS);

/** characters an id or a text must survive: controls, bidi, invisible, surrogates, separators */
const NASTY_CHARACTERS = [
  '\u0000',
  '\n',
  '\r',
  '\t',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u2028',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\u{1F642}',
  '\u{e0041}',
  '/',
  '\\',
  '..',
  '%',
  '%2F',
  '%00',
  '?',
  '#',
  '"',
  "'",
  '<',
  '{{',
  '${',
];

const NASTY_WORDS = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  '../../etc/passwd',
  '..\\..\\windows',
  '/',
  'a/b/c',
  'a2a:anonymous:ctx',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e400',
  'Infinity',
  'true',
  '0x1f',
  '[object Object]',
  'toString',
  'hasOwnProperty',
  'valueOf',
];

/** a huge string (up to past the body limits) */
export const hugeString: fc.Arbitrary<string> = fc
  .record({
    unit: fc.constantFrom('a', 'é', '\u{1F642}', '\\', '"', '\u0000'),
    size: fc.constantFrom(300, 5_000, 70_000, 300_000, 600_000),
  })
  .map(({ unit, size }) => unit.repeat(size));

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_WORDS) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...NASTY_CHARACTERS), fc.string({ maxLength: 3 })), {
        minLength: 1,
        maxLength: 6,
      })
      .map((pieces) => pieces.join('')),
  },
  { weight: 1, arbitrary: hugeString },
);

/** numbers JSON.stringify can write, the odd ones included (NaN and ±Infinity become null) */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, Number.MAX_SAFE_INTEGER + 2, Number.MAX_VALUE, Number.MIN_VALUE, 1e21, -1, 0.5),
);

/** number literals JSON.stringify cannot write (some are no JSON at all) */
export const NUMBER_LITERALS = [
  '1e400',
  '-1e400',
  '-0',
  '0e0',
  '1E-400',
  '123456789012345678901234567890',
  '-0.0000000000000000000000001',
  '1.7976931348623157e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '01',
  '1.',
  '.5',
  '+1',
  '0x10',
];

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('1e400', 'NaN', '-0', '', 'true', 'null'),
);

/** object keys: ordinary, pollution keys, hostile text */
export const objectKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 3, arbitrary: pollutionKey },
  { weight: 1, arbitrary: fc.constantFrom('polluted', 'isAdmin', 'slots', 'name', 'value', 'text') },
  { weight: 1, arbitrary: nastyString },
);

/**
 * An object with the given entries as own properties, `__proto__` included (plain assignment would
 * set the prototype instead); a later duplicate key wins, as in JSON.parse.
 */
export function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) define(object, key, value);
  return object;
}

export function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** a JSON value with hostile leaves and keys (pollution keys as own properties) */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(objectKey, tie('value')), { maxLength: 4 }).map(objectOf),
  ),
})).value;

/** a pollution attempt: `{"__proto__": {"polluted": …}}` and the like, nested a few levels down */
export const pollutionPayload: fc.Arbitrary<unknown> = fc
  .record({
    path: fc.array(fc.oneof(pollutionKey, fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 4 }),
    value: fc.oneof(fc.constant('yes'), jsonValue),
  })
  .map(({ path, value }) =>
    path.reduceRight<unknown>(
      (inner, key) => objectOf([[key, inner]]),
      objectOf([
        ['polluted', value],
        ['isAdmin', true],
      ]),
    ),
  );

// ---------------------------------------------------------------------------------------------------
// hostile JSON text (what JSON.stringify never writes)

const rawLeafText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: leaf.map((value) => JSON.stringify(value) ?? 'null') },
  { weight: 1, arbitrary: fc.constantFrom(...NUMBER_LITERALS) },
);

/**
 * JSON text with duplicate keys (keys come from a small set), odd or invalid number literals, and
 * pollution keys; some of it is no JSON at all.
 */
export function rawJsonText(keys: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(fc.constantFrom(...keys, ...POLLUTION_KEYS), fc.string({ maxLength: 4 }));
  return fc.letrec<{ text: string }>((tie) => ({
    text: fc.oneof(
      { depthSize: 'small', maxDepth: 4 },
      rawLeafText,
      fc.array(tie('text'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
      fc
        .array(fc.tuple(key, tie('text')), { maxLength: 5 })
        .map(
          (entries) => `{${entries.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`,
        ),
    ),
  })).text;
}

/** byte sequences that are no UTF-8: a lone continuation, an overlong '/', an encoded surrogate, … */
export const INVALID_UTF8: readonly Buffer[] = [
  Buffer.from([0xff]),
  Buffer.from([0x80]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xe0, 0x80, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]),
];

export const invalidUtf8: fc.Arbitrary<Buffer> = fc.constantFrom(...INVALID_UTF8);

/** `text` as bytes with invalid UTF-8 put in at some position (inside a string or between tokens) */
export function withInvalidUtf8(text: string): fc.Arbitrary<Buffer> {
  return fc
    .record({ at: fc.nat(), bytes: invalidUtf8 })
    .map(({ at, bytes }) => spliceBytes(Buffer.from(text, 'utf8'), at, bytes));
}

export function spliceBytes(body: Buffer, at: number, bytes: Buffer): Buffer {
  const position = body.length === 0 ? 0 : at % (body.length + 1);
  return Buffer.concat([body.subarray(0, position), bytes, body.subarray(position)]);
}

/** `text` cut short somewhere (never left whole) */
export function truncated(text: string): fc.Arbitrary<string> {
  return fc.nat().map((at) => text.slice(0, text.length === 0 ? 0 : at % text.length));
}

/** JSON nested `depth` levels: `[[[…]]]` or `{"a":{"a":…}}` */
export function nestedText(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export const deepNesting: fc.Arbitrary<string> = fc
  .record({ depth: fc.integer({ min: 60, max: 20_000 }), kind: fc.constantFrom('array', 'object') })
  .map(({ depth, kind }) => nestedText(depth, kind as 'array' | 'object'));

/** Content-Type headers: right, wrong, odd charsets, none */
export const contentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=nonsense',
  'application/octet-stream',
  '*/*',
  'application/vnd.api+json',
);

// ---------------------------------------------------------------------------------------------------
// mutations of a valid body

export type MutationKind = 'drop' | 'retype' | 'pollute' | 'blow-up' | 'nasty-text' | 'nasty-number';

export interface Mutation {
  readonly kind: MutationKind;
  /** which node of the body (an index into its nodes, modulo their count) */
  readonly pick: number;
  readonly value: unknown;
  readonly key: string;
  readonly text: string;
  readonly huge: string;
  readonly number: number;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<MutationKind>('drop', 'retype', 'pollute', 'blow-up', 'nasty-text', 'nasty-number'),
  pick: fc.nat(),
  value: jsonValue,
  key: pollutionKey,
  text: nastyString,
  huge: hugeString,
  number: nastyNumber,
});

type Path = readonly (string | number)[];

/** the paths of every node under the root (the root itself excluded) */
function nodePaths(value: unknown, path: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  return entries.flatMap(([key, item]) => [[...path, key], ...nodePaths(item, [...path, key])]);
}

/** a deep copy keeping `__proto__` keys as own properties */
export function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (typeof value !== 'object' || value === null) return value;
  return objectOf(Object.entries(value).map(([key, item]) => [key, copyJson(item)]));
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(value: unknown): string {
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}

/** a value of another JSON type than `current` */
function otherType(current: unknown, candidate: unknown, text: string, number: number): unknown {
  const options = [candidate, text, number, true, false, null, [], {}, [candidate], objectOf([['x', text]])];
  return options.find((option) => typeOf(option) !== typeOf(current)) ?? null;
}

/** `body` with one mutation applied (a copy; `body` is left as it is) */
export function applyMutation(body: unknown, change: Mutation): unknown {
  const copy = copyJson(body);
  const paths = nodePaths(copy);
  const path = paths[change.pick % Math.max(paths.length, 1)];
  if (path === undefined) return copy;
  const parent = path
    .slice(0, -1)
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], copy);
  const last = path[path.length - 1] as string | number;
  const holder = parent as Record<string | number, unknown>;
  const current = holder[last];
  switch (change.kind) {
    case 'drop':
      if (Array.isArray(holder)) holder.splice(last as number, 1);
      else delete holder[last];
      break;
    case 'retype':
      define(holder, String(last), otherType(current, change.value, change.text, change.number));
      break;
    case 'pollute': {
      // only objects: JSON gives arrays no named properties (and an array's own `constructor` breaks .map)
      const target = isObject(current) ? current : isObject(holder) ? holder : undefined;
      if (target) define(target, change.key, change.value ?? objectOf([['polluted', 'yes']]));
      break;
    }
    case 'blow-up':
      define(holder, String(last), typeof current === 'string' ? current + change.huge : change.huge);
      break;
    case 'nasty-text':
      define(holder, String(last), change.text);
      break;
    case 'nasty-number':
      define(holder, String(last), change.number);
      break;
  }
  return copy;
}

/** `valid` with one to three mutations applied */
export function mutated(valid: () => unknown): fc.Arbitrary<{ body: unknown; changes: Mutation[] }> {
  return fc
    .array(mutation, { minLength: 1, maxLength: 3 })
    .map((changes) => ({ body: changes.reduce(applyMutation, valid()), changes }));
}

// ---------------------------------------------------------------------------------------------------
// Rasa's answers (REST channel, HTTP API)

/** A refusal in Rasa's error body: `status: failure`, the HTTP status repeated as `code`, a reason. */
export function isRasaError(answer: RawAnswer): boolean {
  const body = answer.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const fields = body as Record<string, unknown>;
  return (
    fields['status'] === 'failure' &&
    fields['code'] === answer.status &&
    typeof fields['reason'] === 'string' &&
    typeof fields['message'] === 'string'
  );
}
