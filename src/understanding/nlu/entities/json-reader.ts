import { EntityError } from './errors.js';

/** Reads an untrusted JSON value; every failure names the path that is wrong. */
export class JsonReader {
  constructor(
    readonly value: unknown,
    readonly path: string,
  ) {}

  fail(expected: string): never {
    throw new EntityError('NLU_BAD_MODEL', `Entity model: ${this.path} should be ${expected}.`);
  }

  field(name: string): JsonReader {
    if (typeof this.value !== 'object' || this.value === null || Array.isArray(this.value))
      this.fail('an object');
    return new JsonReader((this.value as Record<string, unknown>)[name], `${this.path}.${name}`);
  }

  isNull(): boolean {
    return this.value === null || this.value === undefined;
  }

  string(): string {
    return typeof this.value === 'string' ? this.value : this.fail('a string');
  }

  optionalString(): string | undefined {
    return this.isNull() ? undefined : this.string();
  }

  number(): number {
    return typeof this.value === 'number' && Number.isFinite(this.value) ? this.value : this.fail('a number');
  }

  boolean(): boolean {
    return typeof this.value === 'boolean' ? this.value : this.fail('true or false');
  }

  oneOf<T extends string>(choices: readonly T[]): T {
    const found = choices.find((choice) => choice === this.value);
    return found ?? this.fail(`one of ${choices.join(', ')}`);
  }

  array<T>(read: (item: JsonReader) => T): T[] {
    if (!Array.isArray(this.value)) this.fail('an array');
    return (this.value as unknown[]).map((item, index) =>
      read(new JsonReader(item, `${this.path}[${index}]`)),
    );
  }

  stringRecord(): Record<string, string> {
    if (typeof this.value !== 'object' || this.value === null || Array.isArray(this.value))
      this.fail('an object');
    return Object.fromEntries(
      Object.keys(this.value as object).map((key) => [key, this.field(key).string()]),
    );
  }
}
