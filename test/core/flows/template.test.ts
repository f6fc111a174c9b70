import { expect } from 'chai';
import { evaluateCondition, parseCondition } from '../../../src/core/flows/conditions/index.js';
import { hasTemplate, renderTemplate } from '../../../src/core/flows/template.js';

describe('flow templates (Jinja placeholders)', () => {
  it('renders a dotted path from the scope', () => {
    expect(renderTemplate('validate_{{context.collect}}', { context: { collect: 'amount' } })).to.equal(
      'validate_amount',
    );
  });

  it('allows spaces inside the braces', () => {
    expect(renderTemplate('slots.{{ context.collect }} is not null', { context: { collect: 'x' } })).to.equal(
      'slots.x is not null',
    );
  });

  it('renders a missing name as the empty string, as Jinja renders Undefined', () => {
    expect(renderTemplate('a{{ context.missing }}b', { context: {} })).to.equal('ab');
    expect(renderTemplate('a{{ nothing }}b', {})).to.equal('ab');
  });

  it('renders a key below a missing one as the empty string instead of raising', () => {
    expect(renderTemplate('[{{ context.missing.deeper }}]', { context: {} })).to.equal('[]');
  });

  it('renders null as None and booleans as True/False, as Python str() does', () => {
    const scope = { context: { a: null, b: true, c: false } };
    expect(renderTemplate('{{context.a}} {{context.b}} {{context.c}}', scope)).to.equal('None True False');
  });

  it('renders whole numbers as ints and other numbers as Python floats', () => {
    const scope = { context: { n: 5, f: 2.5, tiny: 0.00001 } };
    expect(renderTemplate('{{context.n}} {{context.f}} {{context.tiny}}', scope)).to.equal('5 2.5 1e-05');
  });

  it('renders lists and dicts as Python reprs', () => {
    const scope = { context: { list: ['a', 1, null], dict: { k: "it's" } } };
    expect(renderTemplate('{{context.list}} {{context.dict}}', scope)).to.equal(
      `['a', 1, None] {'k': "it's"}`,
    );
  });

  it('reads list items with a numeric path segment', () => {
    expect(renderTemplate('{{ context.items.1 }}', { context: { items: ['a', 'b'] } })).to.equal('b');
  });

  it('leaves an expression it does not support as written', () => {
    expect(renderTemplate('{{ context.x | upper }}', { context: { x: 'a' } })).to.equal(
      '{{ context.x | upper }}',
    );
  });

  it('trims whitespace next to {{- and -}}', () => {
    expect(renderTemplate('a  {{- context.x -}}  b', { context: { x: 'X' } })).to.equal('aXb');
  });

  it('trims only the side a dash is on, between two placeholders too', () => {
    const scope = { a: 'A', b: 'B' };
    expect(renderTemplate('  {{ a -}}  ,  {{ b }}  ', scope)).to.equal('  A,  B  ');
    expect(renderTemplate('{{ a }}  ,  {{- b }}', scope)).to.equal('A  ,B');
  });

  it('keeps the last line of a text without a trailing newline', () => {
    expect(renderTemplate('a\nb', {})).to.equal('a\nb');
  });

  it('reads keys with digits, and list items past the ninth', () => {
    const items = Array.from({ length: 12 }, (_, index) => `item${index}`);
    expect(
      renderTemplate('{{ context.slot1 }}/{{ context.items.10 }}', { context: { slot1: 'x', items } }),
    ).to.equal('x/item10');
  });

  it('reads a character of a string by position, counting code points', () => {
    expect(
      renderTemplate('{{ context.name.0 }}{{ context.emoji.0 }}', { context: { name: 'Zoë', emoji: '😀b' } }),
    ).to.equal('Z😀');
  });

  it('renders names a list or dict does not have as Undefined (nothing)', () => {
    // Jinja: `items.length` is no attribute of a list, `d.0` looks up the int 0, which a JSON dict never has
    const scope = { context: { items: ['a', 'b'], d: { '0': 'zero' } } };
    expect(renderTemplate('[{{ context.items.length }}][{{ context.d.0 }}]', scope)).to.equal('[][]');
  });

  it('drops one trailing newline and normalises line endings, as Jinja does', () => {
    expect(renderTemplate('a\r\nb\n', {})).to.equal('a\nb');
  });

  it('detects whether a text has a placeholder', () => {
    expect(hasTemplate('slots.{{context.collect}} is null')).to.equal(true);
    expect(hasTemplate('slots.{{ context.collect }} is null')).to.equal(true);
    expect(hasTemplate("{'a' 'b'} contains slots.x")).to.equal(false);
    expect(hasTemplate('utter_greet')).to.equal(false);
  });

  it('renders a condition that then parses and evaluates against the slots', () => {
    const text = renderTemplate('slots.{{context.collect}} is not null', { context: { collect: 'amount' } });
    const parsed = parseCondition(text);
    expect(parsed.ok).to.equal(true);
    if (!parsed.ok) return;
    expect(evaluateCondition(parsed.ast, { slots: { amount: 10 }, context: {} })).to.equal(true);
    expect(evaluateCondition(parsed.ast, { slots: { amount: null }, context: {} })).to.equal(false);
  });
});
