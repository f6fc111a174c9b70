/**
 * The third-party Rasa projects some suites run against (`shared/corpus` next to the repository, or
 * `$PARLEY_CORPUS`). A clone without it (a user's machine) skips those suites with one line saying so;
 * with REQUIRE_CORPUS=1 (CI) they fail instead, so a missing corpus cannot pass unnoticed.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function corpusRoot(): string {
  const fromEnv = process.env['PARLEY_CORPUS'];
  if (fromEnv) return resolve(process.cwd(), fromEnv);
  return fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
}

export function corpusAvailable(): boolean {
  return existsSync(resolve(corpusRoot(), 'README.md'));
}

/** `describe` for a suite that reads the corpus: defined only when the corpus is there. */
export function describeWithCorpus(title: string, body: (this: Mocha.Suite) => void): void {
  if (corpusAvailable()) {
    describe(title, body);
    return;
  }
  const where = corpusRoot();
  if (process.env['REQUIRE_CORPUS'] === '1') {
    describe(title, () => {
      it('needs the third-party corpus', () => {
        throw new Error(`REQUIRE_CORPUS=1, but there is no corpus at ${where} (set PARLEY_CORPUS)`);
      });
    });
    return;
  }
  describe(title, () => {
    it.skip(
      `needs the third-party corpus, not found at ${where} (set PARLEY_CORPUS; REQUIRE_CORPUS=1 fails instead)`,
    );
  });
}
