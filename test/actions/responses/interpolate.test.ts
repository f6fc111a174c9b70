import { expect } from 'chai';
import {
  formatValues,
  interpolateFormat,
  mapStrings,
  pyFloatRepr,
  type FormatValueInput,
} from '../../../src/actions/responses/index.js';

function fill(text: string, input: Partial<FormatValueInput> = {}): string {
  return interpolateFormat(text, formatValues({ slots: {}, context: {}, ...input })).text;
}

describe('response interpolation ({slot}, Python str.format semantics)', () => {
  it('fills a placeholder with the slot value', () => {
    expect(fill('Hello, {name}!', { slots: { name: 'Ann' } })).to.equal('Hello, Ann!');
  });

  it('renders an unset slot as None', () => {
    expect(fill('Hello, {name}!', { slots: { name: null } })).to.equal('Hello, None!');
    expect(fill('Hello, {name}!', { slots: { name: undefined } })).to.equal('Hello, None!');
  });

  it('renders booleans as True and False', () => {
    expect(fill('{a}/{b}', { slots: { a: true, b: false } })).to.equal('True/False');
  });

  it('renders a number in a float slot as a Python float, other whole numbers as ints', () => {
    const slotTypes = { amount: 'float', count: 'any', rate: 'float' } as const;
    const slots = { amount: 50, count: 50, rate: 2.5 };
    expect(fill('{amount} {count} {rate}', { slots, slotTypes })).to.equal('50.0 50 2.5');
    expect(fill('{tiny}', { slots: { tiny: 0.00001 }, slotTypes: { tiny: 'float' } })).to.equal('1e-05');
  });

  it('prints floats with Python repr rules', () => {
    const cases: [number, string][] = [
      [50, '50.0'],
      [-0, '-0.0'],
      [0.1, '0.1'],
      [123.456, '123.456'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1.5e-7, '1.5e-07'],
      [1e15, '1000000000000000.0'],
      [1e16, '1e+16'],
      [Infinity, 'inf'],
      [NaN, 'nan'],
    ];
    for (const [value, expected] of cases) expect(pyFloatRepr(value), String(value)).to.equal(expected);
  });

  it('renders lists and dicts as Python repr', () => {
    expect(fill('{items} {info}', { slots: { items: ['a', 1, null], info: { k: true } } })).to.equal(
      "['a', 1, None] {'k': True}",
    );
  });

  it('lets kwargs override slots of the same name', () => {
    const input = {
      slots: { name: 'slot', amount: 5 },
      slotTypes: { amount: 'float' as const },
      kwargs: { name: 'kw' },
    };
    expect(fill('{name} {amount}', input)).to.equal('kw 5.0');
    expect(fill('{amount}', { ...input, kwargs: { amount: 7 } })).to.equal('7');
  });

  it('unescapes {{ and }} when the text has no other placeholder', () => {
    expect(fill('Type {{name}} to see it', { slots: { name: 'Ann' } })).to.equal('Type {name} to see it');
    expect(fill('JSON: {{}}')).to.equal('JSON: {}');
  });

  it('leaves the whole text as written when an escape and a placeholder are mixed (Rasa quirk)', () => {
    expect(fill('Hi {name}, type {{name}}', { slots: { name: 'Ann' } })).to.equal('Hi {name}, type {{name}}');
  });

  it('leaves the whole text unchanged when a placeholder names no slot or kwarg, with a warning', () => {
    const result = interpolateFormat(
      'Hi {name}, your {missing} is ready',
      formatValues({ slots: { name: 'Ann' }, context: {} }),
    );
    expect(result.text).to.equal('Hi {name}, your {missing} is ready');
    expect(result.warnings).to.have.length(1);
    expect(result.warnings[0]).to.include({ code: 'RESPONSE_PLACEHOLDER_UNRESOLVED', path: 'text' });
  });

  it('reads a dotted or numeric placeholder as a literal name', () => {
    expect(fill('{user.name}', { slots: { user: { name: 'Ann' } } })).to.equal('{user.name}');
    expect(fill('{user.name}', { kwargs: { 'user.name': 'Bo' } })).to.equal('Bo');
    expect(fill('{0} and {1}')).to.equal('{0} and {1}');
  });

  it('leaves text that Python cannot format as written, with a warning', () => {
    const result = interpolateFormat(
      'a } b {name}',
      formatValues({ slots: { name: 'x' }, context: {} }),
      'image',
    );
    expect(result.text).to.equal('a } b {name}');
    expect(result.warnings[0]).to.include({ code: 'RESPONSE_FORMAT_INVALID', path: 'image' });
  });

  it('leaves text without placeholders alone', () => {
    const result = interpolateFormat('Plain text.', formatValues({ slots: { a: 1 }, context: {} }));
    expect(result).to.deep.equal({ text: 'Plain text.', warnings: [] });
  });

  it('maps every string inside lists and dicts and keeps other leaves', () => {
    const value = { blocks: [{ text: 'x', n: 1, ok: true }, 'y'], none: null };
    const mapped = mapStrings(value, (text, path) => `${text}@${path}`, 'custom');
    expect(mapped).to.deep.equal({
      blocks: [{ text: 'x@custom.blocks[0].text', n: 1, ok: true }, 'y@custom.blocks[1]'],
      none: null,
    });
    expect(mapped).to.not.equal(value);
  });
});
