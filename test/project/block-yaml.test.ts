/** The quick reader of plain block YAML must read a file as js-yaml does, or leave it to js-yaml. */
import { expect } from 'chai';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, EVENT_ID, load, parseEvents, SCALAR_STYLE_PLAIN } from 'js-yaml';
import { readBlockYaml } from '../../src/project/load/block-yaml.js';
import { ENV_REFERENCE } from '../../src/project/load/env-reference.js';
import { corpusRoot, describeWithCorpus } from '../support/corpus.js';

function yamlFiles(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...yamlFiles(path));
    else if (/\.ya?ml$/.test(name)) found.push(path);
  }
  return found;
}

function jsYaml(text: string): { data: unknown } | undefined {
  try {
    return { data: load(text, { schema: CORE_SCHEMA }) };
  } catch {
    return undefined;
  }
}

/** What the scan of js-yaml's parser events says about `${...}` references, plain and quoted. */
function referencesOf(text: string): { plain: boolean; quoted: boolean } {
  const found = parseEvents(text, {}).filter(
    (event) =>
      event.type === EVENT_ID.SCALAR && ENV_REFERENCE.test(text.slice(event.valueStart, event.valueEnd)),
  );
  return {
    plain: found.some((event) => event.type === EVENT_ID.SCALAR && event.style === SCALAR_STYLE_PLAIN),
    quoted: found.some((event) => event.type === EVENT_ID.SCALAR && event.style !== SCALAR_STYLE_PLAIN),
  };
}

/** Reads every file both ways; answers how many the quick reader read itself. */
function expectAgreement(files: readonly string[]): { read: number; total: number } {
  let read = 0;
  for (const path of files) {
    const text = readFileSync(path, 'utf8');
    const quick = readBlockYaml(text);
    if (!quick) continue;
    read += 1;
    expect(quick.data, path).to.deep.equal(jsYaml(text)?.data);
    const references = referencesOf(text);
    expect({ plain: quick.plainReference, quoted: quick.quotedReference }, path).to.deep.equal(references);
  }
  return { read, total: files.length };
}

describe('readBlockYaml (plain block YAML without the general parser)', () => {
  it('reads nested mappings, aligned and compact lists, quoted and core-schema scalars', () => {
    const text = [
      '# a comment',
      'version: "3.1"',
      'actions:',
      '- action_a',
      '-   action_b  # trailing comment',
      'slots:',
      '  "amount":',
      '    type: float',
      '    min: -1.5',
      '    max: 0x10',
      '    influence_conversation: false',
      '    initial_value: ~',
      '    mappings:',
      '      - type: from_llm',
      '        conditions:',
      '          - active_loop: null',
      "  'its': {}",
      'values: [a, 1, true]',
      'empty: []',
      'escaped: "tab\\there"',
      "single: 'it''s # not a comment'",
      'url: http://example.com/a#b',
      'nothing:',
      '',
    ].join('\n');
    expect(readBlockYaml(text)?.data).to.deep.equal(jsYaml(text)?.data);
    expect(readBlockYaml(text)?.data).to.have.nested.property('slots.amount.max', 16);
  });

  it('reads literal and folded block scalars with clip and strip chomping', () => {
    const text = [
      'nlu:',
      '- intent: greet',
      '  examples: |',
      '    - hi',
      '',
      '    - hello # kept: inside the block',
      '',
      'description: >',
      '  one',
      '  two',
      '',
      '  three',
      'strip: |-',
      '  a',
      '    indented',
      '',
    ].join('\n');
    const quick = readBlockYaml(text);
    expect(quick?.data).to.deep.equal(jsYaml(text)?.data);
    expect(quick?.data).to.have.property('description', 'one two\nthree\n');
  });

  it('tells plain `${...}` references from quoted ones', () => {
    expect(readBlockYaml('url: ${HOST}/x\n')).to.include({ plainReference: true, quotedReference: false });
    expect(readBlockYaml('url: "${HOST}"\n')).to.include({ plainReference: false, quotedReference: true });
    expect(readBlockYaml('text: |\n  ${amount}\n')).to.include({ quotedReference: true });
  });

  it('leaves to js-yaml what it does not read itself', () => {
    const left = [
      'a: {b: 1}',
      'a: &x 1\nb: *x',
      'a: !!str 1',
      'a: one\n  two',
      'a: "one\n  two"',
      'a: 1\na: 2',
      'a:\n\tb: 1',
      'a: 1\n---\nb: 2',
      'a: |+\n  x\n',
      'a: >\n  x\n    more\n',
      'a: |2\n  x\n',
      '1: x',
      'true: x',
      '__proto__: x',
      'a: b: c',
      'just a scalar',
      '',
      '# only a comment',
      '- - nested',
      '? complex\n: key',
      'a: |\n  x',
      'a: "bad \\q escape"',
      'a:\r\n  b: 1',
    ];
    for (const text of left) expect(readBlockYaml(text), JSON.stringify(text)).to.equal(undefined);
  });

  it('never answers differently from js-yaml on generated documents', () => {
    const key = fc.constantFrom('a', 'b', 'key', '"q"', "'s''q'", 'x y', '1', 'null', '${E}', 'a:b');
    const scalar = fc.constantFrom(
      'x',
      'two words',
      '1',
      '-2.5',
      '0o7',
      '.inf',
      'true',
      'No',
      '~',
      '"dq"',
      '"d\\"q"',
      '"t\\tx\\x41\\u00e9\\U0001F600\\/\\\\ \\_"',
      '"\\q"',
      '"\\N"',
      '"\\x4"',
      '"\\U00110000"',
      '"${E}\\n"',
      "'sq'",
      "'s''q'",
      '[a, b]',
      '[]',
      '{}',
      '{a: 1}',
      '|',
      '|-',
      '>',
      '>-',
      '|+',
      'a # c',
      'a#b',
      'a: b',
      '${E}',
      '"${E}"',
      '&a x',
      '*a',
      '-x',
      '- x',
      ':x',
      '',
    );
    const line = fc.tuple(
      fc.constantFrom('', ' ', '  ', '    ', '      '),
      fc.oneof(
        fc.tuple(key, scalar).map(([k, v]) => `${k}: ${v}`),
        fc.tuple(key).map(([k]) => `${k}:`),
        scalar.map((v) => `- ${v}`),
        fc.tuple(key, scalar).map(([k, v]) => `- ${k}: ${v}`),
        fc.constantFrom('-', '# comment', '', 'text line', '  more text', '${E} text'),
      ),
    );
    const documents = fc
      .tuple(fc.array(line, { minLength: 1, maxLength: 12 }), fc.boolean())
      .map(
        ([lines, newline]) => lines.map(([indent, text]) => indent + text).join('\n') + (newline ? '\n' : ''),
      );
    let read = 0;
    fc.assert(
      fc.property(documents, (text) => {
        const quick = readBlockYaml(text);
        if (!quick) return;
        read += 1;
        const expected = jsYaml(text);
        expect(expected, 'js-yaml refuses a text the quick reader read').to.not.equal(undefined);
        expect(quick.data).to.deep.equal(expected?.data);
        expect({ plain: quick.plainReference, quoted: quick.quotedReference }).to.deep.equal(
          referencesOf(text),
        );
      }),
      { numRuns: 3000 },
    );
    expect(read).to.be.greaterThan(20);
  });

  it('reads generated block documents as js-yaml does', () => {
    const word = fc.constantFrom('x', 'hello there', 'a-b', "it's", 'a#b', '${E}', 'say "hi"', 'é', '');
    const leaf = fc.oneof(word, fc.integer({ min: -50, max: 50 }), fc.double({ noNaN: true }), fc.boolean());
    const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('tree'), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'key', 'x y', 'c-d'), tie('tree'), { maxKeys: 4 }),
      ),
    }));
    let read = 0;
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('a', 'b', 'k'), tree, { minKeys: 1 }),
        fc.integer(),
        (data, seed) => {
          const text = renderBlock(data, seed);
          const quick = readBlockYaml(text);
          if (!quick) return;
          read += 1;
          expect(quick.data, text).to.deep.equal(jsYaml(text)?.data);
        },
      ),
      { numRuns: 1500 },
    );
    expect(read).to.be.greaterThan(750);
  });

  it("reads this repository's YAML files as js-yaml does, most of them itself", () => {
    const { read, total } = expectAgreement(yamlFiles('.'));
    expect(read).to.be.greaterThan(total * 0.8);
  });

  describeWithCorpus('on the third-party corpus', () => {
    it('reads every corpus YAML file as js-yaml does, most of them itself', function () {
      this.timeout(60_000);
      const { read, total } = expectAgreement(yamlFiles(corpusRoot()));
      expect(read).to.be.greaterThan(total * 0.8);
    });
  });
});

/** Writes `data` as block YAML, picking among the styles the quick reader knows with a seeded generator. */
function renderBlock(data: unknown, seed: number): string {
  let state = seed >>> 0 || 1;
  const pick = (count: number): number => {
    state = (state * 1103515245 + 12345) >>> 0;
    return (state >>> 16) % count;
  };
  const scalar = (value: unknown, indent: string): string => {
    if (typeof value !== 'string') return String(value);
    const style = pick(4);
    if (style === 0 && value !== '' && !/["'#$é]|^[-\d]/.test(value)) return value;
    if (style === 1) return JSON.stringify(value);
    if (style === 2) return `'${value.replace(/'/g, "''")}'`;
    return value === '' ? '""' : `|-\n${indent}  ${value}`;
  };
  const lines: string[] = [];
  const comment = (indent: string): void => {
    if (pick(6) === 0) lines.push(pick(2) === 0 ? '' : `${indent}# note`);
  };
  const entries = (value: unknown, indent: string, first?: string): void => {
    if (Array.isArray(value)) {
      if (value.length === 0) lines.push(`${first ?? indent}[]`.trimEnd());
      for (const item of value) {
        comment(indent);
        if (item !== null && typeof item === 'object' && Object.keys(item).length > 0 && !Array.isArray(item))
          entries(item, `${indent}  `, `${indent}- `);
        else if (Array.isArray(item) && item.length > 0) {
          lines.push(`${indent}-`);
          entries(item, `${indent}  `);
        } else lines.push(`${indent}- ${inline(item, indent)}`);
      }
      return;
    }
    const record = value as Record<string, unknown>;
    let lead = first;
    for (const [key, item] of Object.entries(record)) {
      comment(indent);
      const prefix = `${lead ?? indent}${pick(3) === 0 ? JSON.stringify(key) : key}:`;
      lead = undefined;
      if (item !== null && typeof item === 'object' && Object.keys(item).length > 0) {
        lines.push(prefix);
        entries(item, Array.isArray(item) && pick(2) === 0 ? indent : `${indent}  `);
      } else lines.push(`${prefix} ${inline(item, indent)}`);
    }
  };
  const inline = (value: unknown, indent: string): string =>
    Array.isArray(value) ? '[]' : value !== null && typeof value === 'object' ? '{}' : scalar(value, indent);
  entries(data, '');
  return `${lines.join('\n')}\n`;
}
