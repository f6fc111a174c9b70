import { expect } from 'chai';
import { eligibleVariations, selectVariation } from '../../../src/actions/responses/index.js';
import type { ResponseVariation } from '../../../src/core/domain/types.js';
import { fixed, predicate, seeded, slotCondition, variation } from './helpers.js';

const noState = { slots: {}, context: {} };

function texts(variations: readonly ResponseVariation[]): (string | undefined)[] {
  return variations.map((item) => item.text);
}

describe('response variation selection', () => {
  describe('randomness', () => {
    const three = [variation({ text: 'a' }), variation({ text: 'b' }), variation({ text: 'c' })];

    it('picks the position the injected random number points at', () => {
      expect(selectVariation(three, { ...noState, random: fixed(0) })?.text).to.equal('a');
      expect(selectVariation(three, { ...noState, random: fixed(0.5) })?.text).to.equal('b');
      expect(selectVariation(three, { ...noState, random: fixed(0.99) })?.text).to.equal('c');
    });

    it('stays in range when random returns exactly 1', () => {
      expect(selectVariation(three, { ...noState, random: fixed(1) })?.text).to.equal('c');
    });

    it('replays the same choices from the same seed and reaches every variation', () => {
      const draw = (seed: number): (string | undefined)[] => {
        const random = seeded(seed);
        return Array.from({ length: 30 }, () => selectVariation(three, { ...noState, random })?.text);
      };
      expect(draw(42)).to.deep.equal(draw(42));
      expect(new Set(draw(42))).to.have.keys('a', 'b', 'c');
      expect(draw(42)).to.not.deep.equal(draw(7));
    });
  });

  describe('predicate conditions', () => {
    const variations = [
      variation({ text: 'premium', condition: predicate('slots.tier = "gold"') }),
      variation({ text: 'default' }),
    ];

    it('prefers a variation whose predicate holds over the default', () => {
      const chosen = selectVariation(variations, { slots: { tier: 'gold' }, context: {}, random: fixed(0) });
      expect(chosen?.text).to.equal('premium');
    });

    it('falls back to the default when the predicate is false', () => {
      const chosen = selectVariation(variations, {
        slots: { tier: 'silver' },
        context: {},
        random: fixed(0),
      });
      expect(chosen?.text).to.equal('default');
    });

    it('evaluates against the frame context too', () => {
      const list = [variation({ text: 'ctx', condition: predicate("context.collect = 'amount'") })];
      expect(texts(eligibleVariations(list, { slots: {}, context: { collect: 'amount' } }))).to.deep.equal([
        'ctx',
      ]);
      expect(eligibleVariations(list, { slots: {}, context: { collect: 'other' } })).to.deep.equal([]);
    });

    it('renders Jinja placeholders in the predicate before evaluating it', () => {
      const list = [
        variation({ text: 'filled', condition: predicate('slots.{{context.collect}} is not null') }),
      ];
      const input = { context: { collect: 'amount' } };
      expect(eligibleVariations(list, { ...input, slots: { amount: 5 } })).to.have.length(1);
      expect(eligibleVariations(list, { ...input, slots: { amount: null } })).to.have.length(0);
    });

    it('treats a predicate that does not parse, or raises, as false', () => {
      const list = [
        variation({ text: 'broken', condition: predicate('slots.x = = 1') }),
        variation({ text: 'raises', condition: predicate("slots.n > 'a'") }),
        variation({ text: 'default' }),
      ];
      expect(texts(eligibleVariations(list, { slots: { x: 1, n: 3 }, context: {} }))).to.deep.equal([
        'default',
      ]);
    });
  });

  describe('legacy slot conditions', () => {
    it('requires every listed slot to match', () => {
      const list = [
        variation({ text: 'both', condition: slotCondition({ a: 'x', b: true }) }),
        variation({ text: 'default' }),
      ];
      expect(texts(eligibleVariations(list, { slots: { a: 'x', b: true }, context: {} }))).to.deep.equal([
        'both',
      ]);
      expect(texts(eligibleVariations(list, { slots: { a: 'x', b: false }, context: {} }))).to.deep.equal([
        'default',
      ]);
    });

    it('compares across types the way Python does: "1" is not 1, null matches an unset slot', () => {
      const list = [
        variation({ text: 'one', condition: slotCondition({ n: 1 }) }),
        variation({ text: 'default' }),
      ];
      expect(texts(eligibleVariations(list, { slots: { n: '1' }, context: {} }))).to.deep.equal(['default']);
      expect(texts(eligibleVariations(list, { slots: { n: 1 }, context: {} }))).to.deep.equal(['one']);
      const unset = [variation({ text: 'unset', condition: slotCondition({ name: null }) })];
      expect(eligibleVariations(unset, { slots: {}, context: {} })).to.have.length(1);
      expect(eligibleVariations(unset, { slots: { name: 'Ann' }, context: {} })).to.have.length(0);
    });

    it('compares two strings case-insensitively, as Rasa does with casefold()', () => {
      const list = [variation({ text: 'match', condition: slotCondition({ city: 'Berlin' }) })];
      expect(eligibleVariations(list, { slots: { city: 'BERLIN' }, context: {} })).to.have.length(1);
      const sharp = [variation({ text: 'sharp', condition: slotCondition({ street: 'STRASSE' }) })];
      expect(eligibleVariations(sharp, { slots: { street: 'straße' }, context: {} })).to.have.length(1);
    });

    it('never selects a variation whose condition list is empty (Rasa reads it as falsy)', () => {
      const list = [variation({ text: 'empty', condition: { kind: 'slots', slots: [] } })];
      expect(selectVariation(list, { ...noState, random: fixed(0) })).to.equal(undefined);
    });
  });

  describe('channel priority', () => {
    const all = [
      variation({ text: 'conditional+rest', channel: 'rest', condition: predicate('slots.vip') }),
      variation({ text: 'default+rest', channel: 'rest' }),
      variation({ text: 'conditional', condition: predicate('slots.vip') }),
      variation({ text: 'default' }),
      variation({ text: 'default+slack', channel: 'slack' }),
    ];
    const vip = { slots: { vip: true }, context: {} };
    const regular = { slots: { vip: false }, context: {} };

    it('1. a conditional variation for the channel beats everything', () => {
      expect(texts(eligibleVariations(all, { ...vip, channel: 'rest' }))).to.deep.equal(['conditional+rest']);
    });

    it('2. then a default variation for the channel, even over a matching condition without channel', () => {
      expect(texts(eligibleVariations(all, { ...regular, channel: 'rest' }))).to.deep.equal(['default+rest']);
      const withoutConditionalForChannel = all.filter((item) => item.text !== 'conditional+rest');
      expect(
        texts(eligibleVariations(withoutConditionalForChannel, { ...vip, channel: 'rest' })),
      ).to.deep.equal(['default+rest']);
    });

    it('3. then a conditional variation without channel', () => {
      expect(texts(eligibleVariations(all, { ...vip, channel: 'socketio' }))).to.deep.equal(['conditional']);
    });

    it('4. then a default variation without channel; other channels are never eligible', () => {
      expect(texts(eligibleVariations(all, { ...regular, channel: 'socketio' }))).to.deep.equal(['default']);
      expect(texts(eligibleVariations(all, regular))).to.deep.equal(['default']);
    });

    it('chooses at random only among the winning tier', () => {
      const list = [
        variation({ text: 'r1', channel: 'rest' }),
        variation({ text: 'any' }),
        variation({ text: 'r2', channel: 'rest' }),
      ];
      const random = seeded(3);
      const picked = new Set(
        Array.from(
          { length: 40 },
          () => selectVariation(list, { ...noState, channel: 'rest', random })?.text,
        ),
      );
      expect(picked).to.have.keys('r1', 'r2');
    });
  });

  it('returns undefined when no variation is eligible', () => {
    const list = [
      variation({ text: 'slack only', channel: 'slack' }),
      variation({ text: 'gold only', condition: predicate('slots.tier = "gold"') }),
    ];
    expect(
      selectVariation(list, { slots: { tier: null }, context: {}, channel: 'rest', random: fixed(0) }),
    ).to.equal(undefined);
    expect(selectVariation([], { ...noState, random: fixed(0) })).to.equal(undefined);
  });
});
