import type { SchemaObject } from 'ajv';
import {
  configSchema,
  credentialsSchema,
  domainSchema,
  endpointsSchema,
  flowsFileSchema,
} from '../project/schemas/index.js';
import { ENDPOINT_KEYS } from '../project/schemas/endpoints.js';

/** Rasa's generic endpoint keys: every section of endpoints.yml takes them, listed once as `<section>.…` */
const SHARED_KEYS: ReadonlySet<SchemaObject> = new Set(Object.values(ENDPOINT_KEYS));

/** One key of a file, as its JSON Schema describes it. */
export interface ConfigKey {
  /** `slots.<name>.mappings[].type`: `<name>` stands for any name, `[]` for each list item */
  readonly path: string;
  readonly type: string;
  readonly defaultValue?: unknown;
  readonly allowed?: readonly unknown[];
  readonly description: string;
}

interface FileKind {
  readonly title: string;
  readonly intro: string;
  readonly schema: SchemaObject;
}

const FILE_KINDS: readonly FileKind[] = [
  {
    title: 'domain.yml',
    intro:
      'The domain: slots, responses, actions, session settings. It may be split over the files of a `domain/` folder, which are merged.',
    schema: domainSchema,
  },
  {
    title: 'config.yml',
    intro:
      'The understanding pipeline and the policies. Component settings are passed to the component as they are.',
    schema: configSchema,
  },
  {
    title: 'endpoints.yml',
    intro:
      'Where the assistant finds its action server, stores, LLMs and event broker, and the A2A server. Values may use `${VAR}` environment references.',
    schema: endpointsSchema,
  },
  {
    title: 'credentials.yml',
    intro:
      'The channels the server listens on, each with its settings (passed to the channel as they are; see docs/channels.md).',
    schema: credentialsSchema,
  },
  {
    title: 'flows (flows/*.yml, data/**/*.yml)',
    intro:
      'Every YAML file with a top-level `flows:` key. A step has exactly one of `action`, `collect`, `set_slots`, `link`, `call` or `noop`; the keys of every step kind are listed under `steps[]`.',
    schema: flowsFileSchema,
  },
];

function resolve(schema: SchemaObject, root: SchemaObject): { schema: SchemaObject; ref?: string } {
  const ref = schema['$ref'] as string | undefined;
  if (ref === undefined) return { schema };
  const name = ref.replace('#/definitions/', '');
  const target = (root['definitions'] as Record<string, SchemaObject> | undefined)?.[name];
  if (!target) throw new Error(`unresolved $ref ${ref}`);
  return { schema: target, ref };
}

function typeOf(schema: SchemaObject): string {
  const types = ([] as unknown[]).concat(schema['type'] ?? []) as string[];
  if (types.length === 0) return schema['const'] !== undefined || schema['enum'] ? 'value' : 'any';
  return types
    .filter((type) => type !== 'null')
    .map((type) => (type === 'array' && schema['items'] ? `list of ${itemTypeOf(schema['items'])}` : type))
    .join(' or ');
}

function itemTypeOf(items: SchemaObject): string {
  if (items['$ref']) return 'steps';
  if (items['properties']) return 'maps';
  const type = typeOf(items);
  return type === 'any' || type === 'value' ? 'values' : type;
}

/** the keys of `schema` (nested maps, lists of maps, maps of names to maps), depth first */
function keysOf(
  schema: SchemaObject,
  root: SchemaObject,
  path: string,
  seen: ReadonlySet<string>,
): ConfigKey[] {
  const resolved = resolve(schema, root);
  if (resolved.ref && seen.has(resolved.ref)) return [];
  const inside = resolved.ref ? new Set([...seen, resolved.ref]) : seen;
  const node = resolved.schema;
  const keys: ConfigKey[] = [];
  const properties = node['properties'] as Record<string, SchemaObject> | undefined;
  for (const [name, child] of Object.entries(properties ?? {})) {
    if (SHARED_KEYS.has(child)) continue;
    const childPath = path ? `${path}.${name}` : name;
    keys.push(row(childPath, resolve(child, root).schema, child));
    keys.push(...keysOf(child, root, childPath, inside));
  }
  const extra = node['additionalProperties'];
  if (typeof extra === 'object' && extra !== null) {
    const childPath = path ? `${path}.<name>` : '<name>';
    keys.push(row(childPath, resolve(extra as SchemaObject, root).schema, extra as SchemaObject));
    keys.push(...keysOf(extra as SchemaObject, root, childPath, inside));
  }
  const items = node['items'];
  if (typeof items === 'object' && items !== null && !Array.isArray(items))
    keys.push(...keysOf(items as SchemaObject, root, `${path}[]`, inside));
  const then = node['then'] as SchemaObject | undefined;
  if (then) keys.push(...keysOf(then, root, path, inside));
  // a step has no keys of its own: each step kind's keys are in the `then` of an allOf entry
  if (!properties)
    for (const entry of (node['allOf'] ?? []) as SchemaObject[])
      if (entry['then']) keys.push(...keysOf(entry['then'] as SchemaObject, root, path, inside));
  return dedupe(keys);
}

function row(path: string, schema: SchemaObject, declared: SchemaObject = schema): ConfigKey {
  const allowed =
    (schema['enum'] as unknown[] | undefined) ??
    (schema['const'] !== undefined ? [schema['const']] : undefined);
  const description = (declared['description'] ?? schema['description'] ?? '') as string;
  return {
    path,
    type: typeOf(schema),
    ...(schema['default'] !== undefined ? { defaultValue: schema['default'] } : {}),
    ...(allowed ? { allowed } : {}),
    description,
  };
}

/** the first row of a path wins (a key shared by every step kind is listed once) */
function dedupe(keys: readonly ConfigKey[]): ConfigKey[] {
  const byPath = new Map<string, ConfigKey>();
  for (const key of keys) if (!byPath.has(key.path)) byPath.set(key.path, key);
  return [...byPath.values()];
}

function sharedEndpointKeys(): ConfigKey[] {
  return Object.entries(ENDPOINT_KEYS).flatMap(([name, schema]) => [
    row(`<section>.${name}`, schema),
    ...keysOf({ properties: (schema['properties'] ?? {}) as object }, {}, `<section>.${name}`, new Set()),
  ]);
}

/** Every key of every file kind, in schema order. */
export function configReference(): { title: string; intro: string; keys: ConfigKey[] }[] {
  return FILE_KINDS.map((kind) => ({
    title: kind.title,
    intro: kind.intro,
    keys: [
      ...(kind.schema === endpointsSchema ? sharedEndpointKeys() : []),
      ...keysOf(kind.schema, kind.schema, '', new Set()),
    ],
  }));
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function code(value: unknown): string {
  return `\`${JSON.stringify(value)}\``;
}

/** docs/configuration-reference.md, generated from the JSON Schemas the loader checks the files with. */
export function renderConfigReference(): string {
  const sections = configReference().flatMap((section) => [
    `## ${section.title}`,
    '',
    section.intro,
    '',
    '| key | type | default | allowed values | description |',
    '| --- | --- | --- | --- | --- |',
    ...section.keys.map(
      (key) =>
        `| \`${key.path}\` | ${key.type} | ${key.defaultValue === undefined ? '' : code(key.defaultValue)} | ${
          key.allowed ? key.allowed.map(code).join(', ') : ''
        } | ${cell(key.description)} |`,
    ),
    '',
  ]);
  return [
    '# Configuration reference',
    '',
    'Every key of the files an assistant is made of, as Parley reads them. This page is generated from the',
    'JSON Schemas the loader checks each file with (`src/project/schemas/`) by `npm run docs:config`; a test',
    'fails when it is out of date. `<name>` stands for a name of your choice (a slot, a response, a flow),',
    '`[]` for each item of a list. A key the schema does not know is a warning (`*_IGNORED_KEY`) or an error,',
    'as [diagnostics.md](diagnostics.md) lists; what Parley does with each Rasa feature is in',
    '[compatibility.md](compatibility.md).',
    '',
    ...sections,
  ].join('\n');
}
