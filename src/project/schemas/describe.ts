import type { SchemaObject } from 'ajv';

/**
 * A schema with its `description` (and the default the loader applies when the key is absent), for
 * docs/configuration-reference.md (`npm run docs:config`). ajv reads neither keyword: validation is unchanged.
 */
export function described(schema: SchemaObject, description: string, defaultValue?: unknown): SchemaObject {
  return { ...schema, description, ...(defaultValue === undefined ? {} : { default: defaultValue }) };
}
