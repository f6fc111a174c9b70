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
    const object = this.object();
    return new JsonReader(Object.hasOwn(object, name) ? object[name] : undefined, `${this.path}.${name}`);
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
    const value: unknown = this.value;
    if (!Array.isArray(value)) return this.fail('an array');
    return value.map((item, index) => read(new JsonReader(item, `${this.path}[${index}]`)));
  }

  stringRecord(): Record<string, string> {
    return Object.fromEntries(Object.keys(this.object()).map((key) => [key, this.field(key).string()]));
  }

  private object(): Record<string, unknown> {
    return isObject(this.value) ? this.value : this.fail('an object');
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
