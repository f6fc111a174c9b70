import { expect } from 'chai';
import type { DialogueEvent } from '../../../src/core/dialogue/dialogue-events.js';
import {
  NOT_SET,
  influences,
  initialFeatures,
  slotFeature,
  stateKey,
  statesBeforeActions,
} from '../../../src/core/dialogue/states.js';
import type { DialogueState, StateOptions } from '../../../src/core/dialogue/states.js';
import { eventsOfSteps, expandOr, storyPaths } from '../../../src/core/dialogue/stitch.js';
import type { Story, StoryStep } from '../../../src/core/dialogue/types.js';
import type { Slot } from '../../../src/core/domain/types.js';
import { inlineAssistant } from '../../support/inline-assistant.js';

const DOMAIN = `
  slots:
    agreed:
      type: bool
    size:
      type: categorical
      values: [Small, large]
    amount:
      type: float
      initial_value: 2
    toppings:
      type: list
    city:
      type: text
    note:
      type: text
      influence_conversation: false
      initial_value: hello
  responses:
    utter_ask_city:
      - text: Which city?
`;
const FLOWS = `
  flows:
    f:
      description: a flow
      steps:
        - collect: city
`;

const domainOf = () => inlineAssistant({ domain: DOMAIN, flows: FLOWS }).domain;
const slotOf = (type: Slot['type'], values: readonly string[] = []): Slot =>
  ({ name: 's', type, values, mappings: [], influenceConversation: true }) as unknown as Slot;

describe('dialogue states as the NLU-based policies see them', () => {
  it('featurizes slot values as Rasa does: bools as true/false, categories lower-cased or __other__, floats as numbers, lists and text as set', () => {
    const bool = slotOf('bool');
    expect([true, 'True', false, 'no', 0].map((value) => slotFeature(bool, value))).to.deep.equal([
      'true',
      'true',
      'false',
      'false',
      'false',
    ]);
    const size = slotOf('categorical', ['Small', 'large']);
    expect(['small', 'LARGE', 'medium'].map((value) => slotFeature(size, value))).to.deep.equal([
      'small',
      'large',
      '__other__',
    ]);
    expect(slotFeature(slotOf('float'), '3.50')).to.equal('3.5');
    expect([[], ['ham']].map((value) => slotFeature(slotOf('list'), value))).to.deep.equal([
      undefined,
      'set',
    ]);
    expect(slotFeature(slotOf('text'), 'Rome')).to.equal('set');
    expect(slotFeature(undefined, 'anything')).to.equal('set');
    expect([null, undefined].map((value) => slotFeature(slotOf('text'), value))).to.deep.equal([
      undefined,
      undefined,
    ]);
  });

  it('starts from the initial values of the slots that influence the conversation', () => {
    const domain = domainOf();
    const initial = initialFeatures(domain);
    expect(initial).to.include({ amount: '2' });
    // without an initial value a slot starts unset; a slot that does not influence the conversation is not seen
    expect(initial).to.not.have.any.keys('agreed', 'size', 'toppings', 'city', 'note');
    const featurized = influences(domain);
    expect(['city', 'note', 'undeclared'].map(featurized)).to.deep.equal([true, false, false]);
  });

  describe('the state before each action', () => {
    const options = (overrides: Partial<StateOptions> = {}): StateOptions => ({
      domain: domainOf(),
      initial: { amount: '2' },
      featurized: (name) => name !== 'note',
      ...overrides,
    });
    const user = (intent: string | null, entities: string[] = []): DialogueEvent => ({
      type: 'user',
      intent,
      entities,
    });
    const act = (name: string): DialogueEvent => ({ type: 'action', name });
    const set = (name: string, value: unknown): DialogueEvent => ({ type: 'slot', name, value });
    const loop = (name: string | null): DialogueEvent => ({ type: 'loop', name });

    it('holds the latest intent and entities, the previous action, the featurized slots and the active loop', () => {
      const events = [
        ...[
          act('action_listen'),
          user('book', ['city']),
          set('city', 'Rome'),
          set('note', 'x'),
          loop('form'),
        ],
        ...[act('utter_ok'), act('action_listen'), user(null)],
      ];
      const { samples, final } = statesBeforeActions(events, options());
      expect(samples.map((sample) => sample.action)).to.deep.equal([
        'action_listen',
        'utter_ok',
        'action_listen',
      ]);
      expect(samples[1]?.states.at(-1)).to.deep.equal({
        intent: 'book',
        entities: ['city'],
        prevAction: 'action_listen',
        slots: { amount: '2', city: 'set' },
        activeLoop: 'form',
      });
      expect(final.at(-1)).to.deep.equal({
        prevAction: 'action_listen',
        slots: { amount: '2', city: 'set' },
        activeLoop: 'form',
      });
    });

    it('drops a slot set back to empty and an ended loop; a rule remembers them as required unset', () => {
      const events = [set('city', 'Rome'), loop('form'), set('city', null), loop(null), act('utter_ok')];
      expect(statesBeforeActions(events, options()).final[0]).to.deep.equal({ slots: { amount: '2' } });
      const rule = statesBeforeActions(events, options({ initial: {}, markUnset: true })).final[0];
      expect(rule).to.deep.equal({ slots: { city: NOT_SET }, activeLoop: NOT_SET });
    });

    it('gives equal states one key, whatever the order their slots were set in, and different states different keys', () => {
      const state = (overrides: Partial<DialogueState>): DialogueState => ({ slots: {}, ...overrides });
      expect(stateKey(state({ slots: { a: 'set', b: 'true' } }))).to.equal(
        stateKey(state({ slots: { b: 'true', a: 'set' } })),
      );
      const different = [
        state({ slots: { a: 'true' } }),
        state({ slots: { a: 'false' } }),
        state({ entities: ['city'] }),
        state({ entities: ['time'] }),
        state({ activeLoop: 'form' }),
        state({ activeLoop: 'other' }),
        state({}),
      ];
      expect(new Set(different.map(stateKey)).size).to.equal(different.length);
    });
  });
});

describe('stories as the policies learn them', () => {
  const intent = (name: string): StoryStep => ({ kind: 'intent', intent: name, entities: [] });
  const act = (name: string): StoryStep => ({ kind: 'action', action: name });
  const checkpoint = (name: string): StoryStep => ({ kind: 'checkpoint', name });
  const story = (name: string, steps: StoryStep[]): Story => ({ name, steps });
  const names = (steps: readonly StoryStep[]): string =>
    steps
      .map((step) =>
        step.kind === 'intent' ? step.intent : step.kind === 'action' ? step.action : step.kind,
      )
      .join(' ');

  it('continues a story that ends in a checkpoint with each story that starts with it', () => {
    const paths = storyPaths([
      story('start', [intent('greet'), act('utter_greet'), checkpoint('asked')]),
      story('yes', [checkpoint('asked'), intent('affirm'), act('utter_happy')]),
      story('no', [checkpoint('asked'), intent('deny'), act('utter_goodbye')]),
      story('unreached', [checkpoint('elsewhere'), intent('thanks'), act('utter_welcome')]),
      story('dangling', [intent('bye'), act('utter_bye'), checkpoint('nobody_continues')]),
    ]);
    expect(paths.map(names)).to.deep.equal([
      'greet utter_greet affirm utter_happy',
      'greet utter_greet deny utter_goodbye',
      'bye utter_bye',
    ]);
  });

  it('follows a checkpoint loop at most four times', () => {
    const [path] = storyPaths([
      story('start', [intent('greet'), act('utter_greet'), checkpoint('again')]),
      story('loop', [checkpoint('again'), intent('more'), act('utter_more'), checkpoint('again')]),
    ]);
    expect(names(path ?? [])).to.equal(`greet utter_greet${' more utter_more'.repeat(4)}`);
  });

  it('a story of checkpoints only adds no steps to the story it continues', () => {
    const paths = storyPaths([
      story('start', [intent('greet'), act('utter_greet'), checkpoint('a')]),
      story('connector', [checkpoint('a')]),
    ]);
    expect(paths.map(names)).to.deep.equal(['greet utter_greet']);
  });

  it('a checkpoint inside a story neither ends nor splits it', () => {
    const [path] = storyPaths([
      story('one', [intent('a'), act('x'), checkpoint('middle'), intent('b'), act('y')]),
    ]);
    expect(names(path ?? [])).to.equal('a x b y');
  });

  it('expands each `or` into its alternatives, at most 500 stories', () => {
    const either: StoryStep = { kind: 'or', alternatives: [intent('affirm'), intent('thanks')] };
    expect(storyPaths([story('or', [either, act('utter_happy')])]).map(names)).to.deep.equal([
      'affirm utter_happy',
      'thanks utter_happy',
    ]);
    const many = Array.from({ length: 10 }, () => either);
    expect(expandOr(many)).to.have.length(500);
    expect(storyPaths([story('many', many), story('more', many)])).to.have.length(500);
  });

  it('reads a slot named without a value as set, and active_loop steps as loop events', () => {
    const events = eventsOfSteps([
      {
        kind: 'slots',
        slots: [
          { name: 'city', value: undefined },
          { name: 'size', value: 'large' },
        ],
      },
      { kind: 'active_loop', loop: 'form' },
      checkpoint('ignored'),
      intent('greet'),
    ]);
    expect(events).to.deep.equal([
      { type: 'slot', name: 'city', value: true },
      { type: 'slot', name: 'size', value: 'large' },
      { type: 'loop', name: 'form' },
      { type: 'action', name: 'action_listen' },
      { type: 'user', intent: 'greet', entities: [] },
    ]);
  });
});
