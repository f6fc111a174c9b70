import type { E2ETestFile, SlotValues } from './e2e-model.js';

/**
 * Fixture and metadata names: a test case's own file first, then the other files of the run (Rasa
 * merges them over all files; the first definition wins).
 */
export class Definitions {
  constructor(private readonly files: readonly E2ETestFile[]) {}

  fixture(file: E2ETestFile, name: string): SlotValues | undefined {
    return (
      file.fixtures.get(name) ?? this.files.find((other) => other.fixtures.has(name))?.fixtures.get(name)
    );
  }

  metadata(file: E2ETestFile, name: string): Readonly<Record<string, unknown>> | undefined {
    return (
      file.metadata.get(name) ?? this.files.find((other) => other.metadata.has(name))?.metadata.get(name)
    );
  }
}
