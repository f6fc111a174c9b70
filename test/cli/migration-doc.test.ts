import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { cliSection } from '../../src/cli/compatibility/cli-section.js';
import { migrationRows, withMigrationTable } from '../../src/cli/migration-doc.js';

function rowOf(rasa: string) {
  return migrationRows().find((entry) => entry.rasa === rasa);
}

describe('docs/rasa-migration.md', () => {
  it('has the command table of the current program (run npm run docs:migration)', () => {
    const doc = readFileSync('docs/rasa-migration.md', 'utf8');
    expect(doc).to.equal(withMigrationTable(doc));
  });

  it('lists every command and flag of the compatibility table, with the same support', () => {
    for (const entry of cliSection().rows) {
      const row = rowOf(entry.feature);
      expect(row, entry.feature).to.not.equal(undefined);
      expect(row?.parley === 'not supported', entry.feature).to.equal(entry.support !== 'supported');
    }
  });

  it("names a supported flag's parley counterpart, and says why a missing command is missing", () => {
    expect(rowOf('`rasa run --port`')?.parley).to.equal('`parley run --port`');
    expect(rowOf('`rasa visualize`')).to.deep.include({ parley: 'not supported' });
    expect(rowOf('`rasa visualize`')?.note).to.not.equal('');
    expect(rowOf('`rasa --version`')?.parley).to.equal('`parley --version`');
    expect(rowOf('`rasa <command> --log-file`')?.parley).to.equal('not supported');
  });

  it("lists Parley's own commands that Rasa has not", () => {
    const own = migrationRows()
      .filter((entry) => entry.rasa === '—')
      .map((entry) => entry.parley);
    expect(own).to.include('`parley nlu evaluate`');
  });
});
