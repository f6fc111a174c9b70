import { Ajv } from 'ajv';
import type { SchemaObject, ValidateFunction } from 'ajv';
import { configSchema } from './config.js';
import { credentialsSchema } from './credentials.js';
import { domainSchema } from './domain.js';
import { e2eTestFileSchema } from './e2e-tests.js';
import { endpointsSchema } from './endpoints.js';
import { flowsFileSchema } from './flows.js';
import { nluFileSchema } from './nlu.js';
import { toProblems } from './problems.js';
import type { SchemaProblem } from './problems.js';

export type { SchemaProblem } from './problems.js';
export { configSchema, credentialsSchema, domainSchema, e2eTestFileSchema, endpointsSchema };
export { flowsFileSchema, nluFileSchema };

export type FileKind = 'domain' | 'flows' | 'nlu' | 'config' | 'endpoints' | 'credentials' | 'e2e';

const SCHEMAS: Record<FileKind, SchemaObject> = {
  domain: domainSchema,
  flows: flowsFileSchema,
  nlu: nluFileSchema,
  config: configSchema,
  endpoints: endpointsSchema,
  credentials: credentialsSchema,
  e2e: e2eTestFileSchema,
};

/**
 * Compiles every file schema once. `verbose` makes ajv attach the failing schema and value to each
 * error, which problems.ts needs to name expected keys and to read the schemas' `x-` annotations.
 */
export function createSchemaValidators(): Record<FileKind, ValidateFunction> {
  const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, verbose: true });
  const entries = Object.entries(SCHEMAS).map(([kind, schema]) => [kind, ajv.compile(schema)] as const);
  return Object.fromEntries(entries) as Record<FileKind, ValidateFunction>;
}

let validators: Record<FileKind, ValidateFunction> | undefined;

/** Checks parsed YAML against the schema of its file kind; an empty list means the shape is valid. */
export function validateFile(kind: FileKind, data: unknown): SchemaProblem[] {
  validators ??= createSchemaValidators();
  const validate = validators[kind];
  return validate(data) ? [] : toProblems(validate.errors ?? []);
}
