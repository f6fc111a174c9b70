import { expect } from 'chai';
import {
  actionNames,
  inlineAssistant,
  slotValues,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';
import { activeLoop, executed, reverted, runAction, summary, userWithIntent } from './run-action.js';

const DOMAIN = `
  slots:
    city:
      type: text
  responses:
    utter_ask_city:
      - text: Which city?
    utter_done:
      - text: Done.
`;

const FLOWS = `
  flows:
    weather:
      description: Tell the weather.
      steps:
        - collect: city
        - action: action_default_fallback
        - action: utter_done
`;

const plain = inlineAssistant({ domain: DOMAIN, flows: FLOWS });
const withResponses = inlineAssistant({
  domain: `${DOMAIN}
    utter_back:
      - text: Going back.
    utter_restart:
      - text: Starting over.
    utter_ask_rephrase:
      - text: Say it differently?
  `,
  flows: FLOWS,
});

describe('built-in fallback actions', () => {
  describe('action_default_fallback', () => {
    it('says utter_default and takes the user message back: the slot it set is unset and the question asked again', async () => {
      const conversation = await startConversation(plain);
      await conversation.send('weather', [{ command: 'start flow', flow: 'weather' }]);
      const events = await conversation.send('Porto', [
        { command: 'set slot', name: 'city', value: 'Porto' },
      ]);
      const names = actionNames(events);
      expect(names.indexOf('action_default_fallback')).to.be.lessThan(names.indexOf('utter_ask_city'));
      expect(utterances(events)).to.deep.equal(['utter_default', 'utter_ask_city']);
      expect(events.map((event) => event.event)).to.include('rewind');
      expect(slotValues(events, 'city')).to.deep.equal(['Porto']);
      expect((await conversation.slots())['city']).to.equal(null);
    });

    it('is uttered from the default domain (utter_default), and a project may word it itself', async () => {
      expect(plain.domain.responses.has('utter_default')).to.equal(true);
      const own = inlineAssistant({
        domain: `${DOMAIN}
    utter_default:
      - text: I am lost.
  `,
        flows: FLOWS,
      });
      expect(summary(await runAction(own, 'action_default_fallback', [userWithIntent('x')]))).to.deep.equal([
        'bot:I am lost.',
        'rewind',
      ]);
    });
  });

  describe('action_back and action_restart', () => {
    it('action_back says utter_back when the assistant has it, then reverts two user messages', async () => {
      expect(summary(await runAction(withResponses, 'action_back', []))).to.deep.equal([
        'bot:Going back.',
        'rewind',
        'rewind',
      ]);
      expect(summary(await runAction(plain, 'action_back', []))).to.deep.equal(['rewind', 'rewind']);
    });

    it('action_restart says utter_restart only when the assistant has it', async () => {
      expect(summary(await runAction(withResponses, 'action_restart', []))).to.deep.equal([
        'bot:Starting over.',
        'restart',
      ]);
      expect(summary(await runAction(plain, 'action_restart', []))).to.deep.equal(['restart']);
    });
  });

  describe('action_default_ask_rephrase and action_default_ask_affirmation', () => {
    it('asks to rephrase with utter_ask_rephrase (the default one unless the project has its own)', async () => {
      expect(summary(await runAction(withResponses, 'action_default_ask_rephrase', []))).to.deep.equal([
        'bot:Say it differently?',
      ]);
      expect(plain.domain.responses.has('utter_ask_rephrase')).to.equal(true);
      expect(await runAction(plain, 'action_default_ask_rephrase', [])).to.have.length(1);
    });

    it("asks about the latest intent with Rasa's Yes / No (out_of_scope) buttons", async () => {
      const [message] = await runAction(plain, 'action_default_ask_affirmation', [
        userWithIntent('check_balance'),
      ]);
      expect(message).to.deep.include({ event: 'bot', text: "Did you mean 'check_balance'?" });
      expect(message?.event === 'bot' ? message.data.buttons : undefined).to.deep.equal([
        { title: 'Yes', payload: '/check_balance' },
        { title: 'No', payload: '/out_of_scope' },
      ]);
      expect(message?.metadata).to.deep.equal({ utter_action: 'action_default_ask_affirmation' });
    });

    it('asks about the runner-up intent when the top one is nlu_fallback', async () => {
      const fallback = userWithIntent('nlu_fallback', 0.3, [
        { name: 'nlu_fallback', confidence: 0.3 },
        { name: 'greet', confidence: 0.25 },
      ]);
      const [message] = await runAction(plain, 'action_default_ask_affirmation', [fallback]);
      expect(message).to.deep.include({ text: "Did you mean 'greet'?" });
    });
  });

  describe('action_default_ask_affirmation, edge cases', () => {
    const asked = async (history: Parameters<typeof runAction>[2]): Promise<unknown> =>
      (await runAction(plain, 'action_default_ask_affirmation', history))[0];

    it('asks about the top intent itself when it is not nlu_fallback, or when no runner-up is ranked', async () => {
      const ranked = [
        { name: 'greet', confidence: 0.6 },
        { name: 'goodbye', confidence: 0.3 },
      ];
      expect(await asked([userWithIntent('greet', 0.6, ranked)])).to.deep.include({
        text: "Did you mean 'greet'?",
      });
      const alone = [{ name: 'nlu_fallback', confidence: 0.3 }];
      expect(await asked([userWithIntent('nlu_fallback', 0.3, alone)])).to.deep.include({
        text: "Did you mean 'nlu_fallback'?",
      });
    });

    it("prints a message without an intent as Python's None, and says nothing before any user message", async () => {
      const message = userWithIntent('x');
      const noIntent = {
        ...message,
        parse_data: { ...message.parse_data, intent: { name: null, confidence: 0 } },
      };
      expect(await asked([noIntent])).to.deep.include({ text: "Did you mean 'None'?" });
      expect(await runAction(plain, 'action_default_ask_affirmation', [])).to.deep.equal([]);
    });
  });

  describe('action_two_stage_fallback (a loop, as Rasa runs it)', () => {
    const listen = executed('action_listen');
    const twoStage = executed('action_two_stage_fallback');

    it('activates itself on an nlu_fallback message and asks for affirmation', async () => {
      const events = await runAction(plain, 'action_two_stage_fallback', [
        listen,
        userWithIntent('nlu_fallback', 0.2),
      ]);
      expect(summary(events)).to.deep.equal([
        'active_loop:action_two_stage_fallback',
        "bot:Did you mean 'nlu_fallback'?",
      ]);
    });

    it('asks to rephrase when the user denied the affirmation', async () => {
      const history = [
        listen,
        userWithIntent('nlu_fallback', 0.2),
        twoStage,
        activeLoop('action_two_stage_fallback'),
        listen,
        userWithIntent('out_of_scope', 1),
      ];
      expect(summary(await runAction(withResponses, 'action_two_stage_fallback', history))).to.deep.equal([
        'bot:Say it differently?',
      ]);
    });

    it('ends when the user clarifies: the clarification replaces the message, its intent now certain', async () => {
      const history = [
        listen,
        userWithIntent('nlu_fallback', 0.2),
        twoStage,
        activeLoop('action_two_stage_fallback'),
        listen,
        userWithIntent('check_balance', 0.7),
      ];
      expect(summary(await runAction(plain, 'action_two_stage_fallback', history))).to.deep.equal([
        'active_loop:null',
        'rewind',
        'action:action_listen',
        'user:check_balance@1',
      ]);
    });

    it('gives up with action_default_fallback after two fallbacks in a row', async () => {
      const history = [
        ...[listen, userWithIntent('greet'), executed('utter_greet')],
        listen,
        userWithIntent('nlu_fallback', 0.2),
        twoStage,
        activeLoop('action_two_stage_fallback'),
        listen,
        userWithIntent('nlu_fallback', 0.1),
      ];
      expect(summary(await runAction(plain, 'action_two_stage_fallback', history))).to.deep.equal([
        'active_loop:null',
        "bot:Sorry, I didn't get that. Could you rephrase?",
        'rewind',
      ]);
    });

    it('gives up after a second denied affirmation', async () => {
      const loop = activeLoop('action_two_stage_fallback');
      const history = [
        ...[listen, userWithIntent('nlu_fallback', 0.2), twoStage, loop],
        ...[listen, userWithIntent('out_of_scope', 1), twoStage],
        ...[listen, userWithIntent('nlu_fallback', 0.2), twoStage],
        ...[listen, userWithIntent('out_of_scope', 1)],
      ];
      const events = await runAction(plain, 'action_two_stage_fallback', history);
      expect(summary(events)).to.deep.equal([
        'active_loop:null',
        `bot:Sorry, I didn't get that. Could you rephrase?`,
        'rewind',
      ]);
    });

    it('asks for affirmation again when the rephrased message is unclear too', async () => {
      const loop = activeLoop('action_two_stage_fallback');
      const history = [
        ...[listen, userWithIntent('nlu_fallback', 0.2), twoStage, loop],
        ...[listen, userWithIntent('out_of_scope', 1), twoStage],
        ...[listen, userWithIntent('nlu_fallback', 0.2)],
      ];
      expect(summary(await runAction(plain, 'action_two_stage_fallback', history))).to.deep.equal([
        "bot:Did you mean 'nlu_fallback'?",
      ]);
    });

    it('after giving up, asks again: the message the give-up reverted does not count as a fallback in a row', async () => {
      const history = [
        ...[listen, userWithIntent('nlu_fallback', 0.2), twoStage, activeLoop('action_two_stage_fallback')],
        ...[listen, userWithIntent('nlu_fallback', 0.1), twoStage, activeLoop(null)],
        ...[executed('action_default_fallback'), reverted()],
        ...[listen, userWithIntent('nlu_fallback', 0.2)],
      ];
      expect(summary(await runAction(plain, 'action_two_stage_fallback', history))).to.deep.equal([
        "bot:Did you mean 'nlu_fallback'?",
      ]);
    });

    it('counts only the messages since the latest restart', async () => {
      const history = [
        ...[listen, userWithIntent('nlu_fallback', 0.2), twoStage, activeLoop('action_two_stage_fallback')],
        { event: 'restart', timestamp: 0 } as const,
        ...[listen, userWithIntent('nlu_fallback', 0.2)],
      ];
      expect(summary(await runAction(plain, 'action_two_stage_fallback', history))).to.deep.equal([
        'active_loop:action_two_stage_fallback',
        "bot:Did you mean 'nlu_fallback'?",
      ]);
    });

    it('counts a message at the very start of the history', async () => {
      const history = [
        ...[userWithIntent('nlu_fallback', 0.2), twoStage, activeLoop('action_two_stage_fallback')],
        ...[listen, userWithIntent('nlu_fallback', 0.1)],
      ];
      expect(summary(await runAction(plain, 'action_two_stage_fallback', history))).to.include('rewind');
    });

    it("runs the project's own action_default_ask_affirmation when the domain overrides it", async () => {
      const overriding = inlineAssistant({
        domain: `${DOMAIN}
  actions:
    - action_default_ask_affirmation
  `,
        flows: FLOWS,
      });
      const events = await runAction(
        overriding,
        'action_two_stage_fallback',
        [listen, userWithIntent('nlu_fallback')],
        {
          stubs: {
            action_default_ask_affirmation: { events: [], responses: [{ text: 'Is it about money?' }] },
          },
        },
      );
      expect(summary(events)).to.deep.equal([
        'active_loop:action_two_stage_fallback',
        'bot:Is it about money?',
      ]);
    });
  });

  describe('action_revert_fallback_events', () => {
    it('after a rephrasing, takes back the fallback turns and replays the rephrased message', async () => {
      const history = [
        executed('action_listen'),
        userWithIntent('nlu_fallback', 0.2),
        executed('action_default_ask_rephrase'),
        executed('action_listen'),
        userWithIntent('greet', 0.8),
      ];
      expect(summary(await runAction(plain, 'action_revert_fallback_events', history))).to.deep.equal([
        'rewind',
        'rewind',
        'rewind',
        'action:action_listen',
        'user:greet@0.8',
      ]);
    });

    it('after an affirmation, replays the affirmed message with full confidence', async () => {
      const history = [
        executed('action_listen'),
        userWithIntent('nlu_fallback', 0.2),
        executed('action_default_ask_affirmation'),
        executed('action_listen'),
        userWithIntent('greet', 0.8),
      ];
      expect(summary(await runAction(plain, 'action_revert_fallback_events', history))).to.deep.equal([
        'rewind',
        'rewind',
        'action:action_listen',
        'user:greet@1',
      ]);
    });

    it('after an affirmation of a rephrased message, takes back the rephrasing turn as well', async () => {
      const history = [
        ...[executed('action_listen'), userWithIntent('greet'), executed('utter_greet')],
        ...[executed('action_listen'), userWithIntent('nlu_fallback', 0.2)],
        ...[
          executed('action_default_ask_rephrase'),
          executed('action_listen'),
          userWithIntent('nlu_fallback', 0.3),
        ],
        ...[
          executed('action_default_ask_affirmation'),
          executed('action_listen'),
          userWithIntent('greet', 0.4),
        ],
      ];
      expect(summary(await runAction(plain, 'action_revert_fallback_events', history))).to.deep.equal([
        'rewind',
        'rewind',
        'action:action_listen',
        'rewind',
        'rewind',
        'rewind',
        'action:action_listen',
        'user:greet@1',
      ]);
    });

    it('does nothing without a user message, or when the latest action asked nothing', async () => {
      expect(
        await runAction(plain, 'action_revert_fallback_events', [executed('action_default_ask_rephrase')]),
      ).to.be.empty;
      const answered = [executed('action_listen'), userWithIntent('greet'), executed('utter_greet')];
      expect(await runAction(plain, 'action_revert_fallback_events', answered)).to.deep.equal([]);
    });

    it('does nothing when no fallback question came before', async () => {
      const history = [
        executed('action_listen'),
        userWithIntent('greet'),
        executed('utter_greet'),
        reverted(),
      ];
      expect(await runAction(plain, 'action_revert_fallback_events', history)).to.deep.equal([]);
    });
  });
});
