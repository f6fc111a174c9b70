import type { Ajv as AjvCompiler, Options, SchemaObject, ValidateFunction } from 'ajv';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { assetUrl } from '../../asset-paths.js';
import { requireWithCodeCache } from './cached-script.js';
import { configSchema } from './config.js';
import { credentialsSchema } from './credentials.js';
import { domainSchema } from './domain.js';
import { e2eTestFileSchema } from './e2e-tests.js';
import { endpointsSchema } from './endpoints.js';
import { flowsFileSchema } from './flows.js';
import { nluFileSchema } from './nlu.js';
import { storiesFileSchema } from './stories.js';
import { nearMissKeys } from './near-misses.js';
import { toProblems } from './problems.js';
import type { SchemaProblem } from './problems.js';

export type { SchemaProblem } from './problems.js';
export { configSchema, credentialsSchema, domainSchema, e2eTestFileSchema, endpointsSchema };
export { flowsFileSchema, nluFileSchema, storiesFileSchema };

export type FileKind =
  'domain' | 'flows' | 'nlu' | 'stories' | 'config' | 'endpoints' | 'credentials' | 'e2e';

export const SCHEMAS: Record<FileKind, SchemaObject> = {
  domain: domainSchema,
  flows: flowsFileSchema,
  nlu: nluFileSchema,
  stories: storiesFileSchema,
  config: configSchema,
  endpoints: endpointsSchema,
  credentials: credentialsSchema,
  e2e: e2eTestFileSchema,
};

/**
 * Compiles every file schema once. `verbose` makes ajv attach the failing schema and value to each
 * error, which problems.ts needs to name expected keys and to read the schemas' `x-` annotations.
 */
export const AJV_OPTIONS: Options = { allErrors: true, strict: false, allowUnionTypes: true, verbose: true };
export const FAST_AJV_OPTIONS: Options = {
  allErrors: false,
  strict: false,
  allowUnionTypes: true,
  verbose: false,
  inlineRefs: false,
};

/** Compiles every schema (used when the build's precompiled validators are absent, as in tests). */
export function createSchemaValidators(): Record<FileKind, ValidateFunction> {
  // ajv's compiler takes ~60 ms to import; precompiled validators need only its small runtime.
  const { Ajv } = createRequire(import.meta.url)('ajv') as { Ajv: typeof AjvCompiler };
  const ajv = new Ajv(AJV_OPTIONS);
  const entries = Object.entries(SCHEMAS).map(([kind, schema]) => [kind, ajv.compile(schema)] as const);
  return Object.fromEntries(entries) as Record<FileKind, ValidateFunction>;
}

type Validators = Record<FileKind, ValidateFunction>;

// `npm run build` precompiles the schemas next to the compiled code (scripts/compile-schemas.js): a fast
// yes/no validator and the verbose one that explains failures. Running from the TypeScript sources
// (tests) compiles the verbose one here and uses it for both.
const PRECOMPILED_FAST = assetUrl('project/schemas/compiled-fast-validators.cjs');
const PRECOMPILED_VERBOSE = assetUrl('project/schemas/compiled-validators.cjs');

let fastValidators: Validators | undefined;
let verboseValidators: Validators | undefined;

function precompiled(url: URL): Validators | undefined {
  const path = fileURLToPath(url);
  return existsSync(path) ? (requireWithCodeCache(path) as Validators) : undefined;
}

function verbose(): Validators {
  verboseValidators ??= precompiled(PRECOMPILED_VERBOSE) ?? createSchemaValidators();
  return verboseValidators;
}

/** Checks parsed YAML against the schema of its file kind; an empty list means the shape is valid. */
export function validateFile(kind: FileKind, data: unknown): SchemaProblem[] {
  fastValidators ??= precompiled(PRECOMPILED_FAST) ?? verbose();
  const nearMisses = NEAR_MISS_KINDS.has(kind) ? nearMissKeys(SCHEMAS[kind], data) : [];
  if (fastValidators[kind](data)) return nearMisses;
  const validate = verbose()[kind];
  return validate(data) ? nearMisses : [...toProblems(validate.errors ?? []), ...nearMisses];
}

/** The file kinds whose schema has open maps checked for near-miss keys (`x-near-miss`). */
const NEAR_MISS_KINDS: ReadonlySet<FileKind> = new Set(['endpoints']);
