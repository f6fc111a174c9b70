/** The line reader of plain block YAML must place a node where the position-keeping parser does, or stay silent. */
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { blockPositionOf } from '../../src/project/load/block-position.js';
import { parsedPositionOf, YamlFile } from '../../src/project/load/yaml-file.js';
import type { PathSegment } from '../../src/project/load/yaml-file.js';
import { corpusRoot, describeWithCorpus } from '../support/corpus.js';

function yamlFiles(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...yamlFiles(path));
    else if (/\.ya?ml$/.test(name)) found.push(path);
  }
  return found;
}

/** Every path into the data, parents before children, at most `limit` of them. */
function pathsOf(data: unknown, limit = 4000): PathSegment[][] {
  const paths: PathSegment[][] = [];
  const visit = (value: unknown, path: PathSegment[]) => {
    if (paths.length >= limit) return;
    if (path.length > 0) paths.push(path);
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...path, index]));
    else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
  };
  visit(data, []);
  return paths;
}

/** Compares both readers on every path of every file; answers how many the line reader placed itself. */
function expectAgreement(files: readonly string[]): { placed: number; asked: number } {
  let placed = 0;
  let asked = 0;
  for (const path of files) {
    const text = readFileSync(path, 'utf8');
    let data: unknown;
    try {
      data = load(text, { schema: CORE_SCHEMA });
    } catch {
      continue; // broken on purpose (fixtures of syntax errors)
    }
    const file = new YamlFile(path, text, data);
    for (const nodePath of pathsOf(data))
      for (const preferKey of [true, false]) {
        asked += 1;
        const quick = blockPositionOf(text, nodePath, preferKey);
        if (!quick) continue;
        placed += 1;
        const parsed = parsedPositionOf(file, nodePath, preferKey);
        expect(
          { line: quick.line, column: quick.column },
          `${path} ${JSON.stringify(nodePath)} key=${preferKey}`,
        ).to.deep.equal({
          line: parsed.line,
          column: parsed.column,
        });
      }
  }
  return { placed, asked };
}

describe('blockPositionOf (positions without the YAML parser)', () => {
  it('places keys and values of nested mappings, aligned and compact lists, quoted keys', () => {
    const text = [
      '# a comment',
      'version: "3.1"',
      'actions:',
      '- action_a',
      '-   action_b',
      'slots:',
      '  "amount":',
      '    type: float',
      '    mappings:',
      '      - type: from_llm',
      '        conditions:',
      '          - active_loop: x',
      "  'recipient': {type: text}",
      'responses:',
      '  utter_x:',
      '  - text: |',
      '      a: not a key',
      '    buttons: []',
    ].join('\n');
    expect(blockPositionOf(text, ['version'], true)).to.deep.equal({ line: 2, column: 1 });
    expect(blockPositionOf(text, ['version'], false)).to.deep.equal({ line: 2, column: 10 });
    expect(blockPositionOf(text, ['actions', 1], false)).to.deep.equal({ line: 5, column: 5 });
    expect(
      blockPositionOf(text, ['slots', 'amount', 'mappings', 0, 'conditions', 0, 'active_loop'], true),
    ).to.deep.equal({
      line: 12,
      column: 13,
    });
    expect(blockPositionOf(text, ['responses', 'utter_x', 0, 'buttons'], true)).to.deep.equal({
      line: 18,
      column: 5,
    });
    // flow collections, block scalars and missing keys are left to the parser
    expect(blockPositionOf(text, ['slots', 'recipient', 'type'], true)).to.equal(undefined);
    expect(blockPositionOf(text, ['responses', 'utter_x', 0, 'text', 'a'], true)).to.equal(undefined);
    expect(blockPositionOf(text, ['responses', 'utter_y'], true)).to.equal(undefined);
    expect(blockPositionOf('a: 1\n---\nb: 2\n', ['b'], true)).to.equal(undefined);
    expect(blockPositionOf('a:\n\tb: 1\n', ['a', 'b'], true)).to.equal(undefined);
  });

  it("agrees with the position-keeping parser on every path of this repository's YAML files", () => {
    const files = [
      ...yamlFiles('data'),
      ...yamlFiles('test/fixtures'),
      'domain.yml',
      'config.yml',
      'endpoints.yml',
    ];
    const { placed, asked } = expectAgreement(files);
    // most paths of ordinary files are placed without the parser
    expect(placed).to.be.greaterThan(asked / 3);
  });

  describeWithCorpus('on the third-party corpus', () => {
    it('agrees with the position-keeping parser on every path of every corpus YAML file', function () {
      this.timeout(60_000);
      const { placed, asked } = expectAgreement(yamlFiles(corpusRoot()));
      expect(placed).to.be.greaterThan(asked / 3);
    });
  });
});
