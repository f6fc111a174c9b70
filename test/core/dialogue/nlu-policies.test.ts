import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Assistant } from '../../../src/core/assistant.js';
import type { Event } from '../../../src/core/events/types.js';
import { validateProject } from '../../../src/project/validate/index.js';
import { actionNames, dedent, inlineAssistant, startConversation } from '../../support/inline-assistant.js';
import type { Conversation } from '../../support/inline-assistant.js';
import { MOODBOT_DOMAIN, MOODBOT_FLOWS, MOODBOT_RULES, MOODBOT_STORIES } from './moodbot.js';

/** The actions a turn ran, without the listen that ends it. */
function ran(events: readonly Event[]): string[] {
  return actionNames(events).filter((name) => name !== 'action_listen' && name !== 'action_session_start');
}

function policiesOf(events: readonly Event[]): string[] {
  const user = events.findIndex((event) => event.event === 'user');
  return events.slice(user).flatMap((event) => (event.event === 'action' ? [String(event.policy)] : []));
}

describe('NLU-based policies on rules and stories (a session routed away from CALM)', () => {
  let moodbot: Assistant;
  let conversation: Conversation;

  before(() => {
    moodbot = inlineAssistant({
      domain: MOODBOT_DOMAIN,
      flows: MOODBOT_FLOWS,
      files: { 'data/stories.yml': MOODBOT_STORIES, 'data/rules.yml': MOODBOT_RULES },
    });
  });
  beforeEach(async () => {
    conversation = await startConversation(moodbot);
  });

  it('reads the rules and stories of the project', () => {
    expect(moodbot.dialogue.stories.map((story) => story.name)).to.include('sad path');
    expect(moodbot.dialogue.rules).to.have.length(4);
    const rule = moodbot.dialogue.rules.find((item) => item.name.startsWith('welcome'));
    expect(rule?.conversationStart).to.equal(true);
  });

  it('a conversation_start rule answers the first message, a story the same intent later (RulePolicy before MemoizationPolicy)', async () => {
    const first = await conversation.send('/greet');
    expect(ran(first)).to.deep.equal(['utter_welcome']);
    expect(policiesOf(first)).to.deep.equal(['RulePolicy', 'RulePolicy']);
    const again = await conversation.send('/greet');
    expect(ran(again)).to.deep.equal(['utter_greet']);
    expect(policiesOf(again)[0]).to.equal('MemoizationPolicy');
  });

  it('follows a story through several actions and on through a checkpoint and an `or`', async () => {
    await conversation.send('/greet');
    await conversation.send('/greet');
    expect(ran(await conversation.send('/mood_unhappy'))).to.deep.equal([
      'utter_cheer_up',
      'utter_did_that_help',
    ]);
    expect(ran(await conversation.send('/thanks'))).to.deep.equal(['utter_happy']);
  });

  it('takes the other branch of the checkpoint', async () => {
    await conversation.send('/greet');
    await conversation.send('/greet');
    await conversation.send('/mood_unhappy');
    expect(ran(await conversation.send('/deny'))).to.deep.equal(['utter_goodbye']);
  });

  it('hides a turn only a rule handles from the stories, which then go on as if it had not happened', async () => {
    await conversation.send('/greet');
    await conversation.send('/greet');
    const bot = await conversation.send('/bot_challenge');
    expect(ran(bot)).to.deep.equal(['utter_iamabot', 'utter_anything_else']);
    const hidden = bot.filter((event) => event.event === 'action' && event.hide_rule_turn === true);
    expect(hidden.map((event) => (event.event === 'action' ? event.name : ''))).to.deep.equal([
      'utter_iamabot',
      'utter_anything_else',
      'action_listen',
    ]);
    expect(ran(await conversation.send('/mood_unhappy'))).to.deep.equal([
      'utter_cheer_up',
      'utter_did_that_help',
    ]);
  });

  it('a rule without conversation_start answers anywhere; a rule may run several actions', async () => {
    await conversation.send('/greet');
    expect(ran(await conversation.send('/goodbye'))).to.deep.equal(['utter_goodbye']);
    expect(ran(await conversation.send('/bot_challenge'))).to.deep.equal([
      'utter_iamabot',
      'utter_anything_else',
    ]);
  });

  it('fills the NLU side slots from their mappings, and stories and rule conditions read them', async () => {
    const intro = await conversation.send('/inform{"name": "Ana"}');
    expect(
      intro.some((event) => event.event === 'slot' && event.name === 'name' && event.value === 'Ana'),
    ).to.equal(true);
    expect(ran(intro)).to.deep.equal(['utter_nice_to_meet']);
    expect(ran(await conversation.send('/thanks'))).to.deep.equal(['utter_youre_welcome']);
  });

  it('never answers with silence: a message no rule or story covers runs the fallback action', async () => {
    await conversation.send('/greet');
    const lost = await conversation.send('/affirm');
    expect(ran(lost)).to.deep.equal(['action_default_fallback']);
    expect(
      lost.find((event) => event.event === 'action' && event.name === 'action_default_fallback'),
    ).to.deep.include({
      policy: 'RulePolicy',
      confidence: 0.3,
    });
  });

  it('answers the HTTP API predict with the policy that would act', async () => {
    await conversation.send('/greet');
    await conversation.send('/greet');
    await conversation.append([
      {
        event: 'user',
        text: '/mood_great',
        parse_data: { intent: { name: 'mood_great', confidence: 1 }, entities: [] },
      },
    ]);
    expect(await conversation.agent.predict(conversation.conversationId)).to.deep.equal({
      action: 'utter_happy',
      policy: 'MemoizationPolicy',
      confidence: 1,
    });
  });

  it('restarts on /restart (Rasa’s default rule) and starts again from the conversation start', async () => {
    await conversation.send('/greet');
    const restart = await conversation.send('/restart');
    expect(actionNames(restart)).to.deep.equal(['action_restart', 'action_session_start', 'action_listen']);
    expect(ran(await conversation.send('/greet'))).to.deep.equal(['utter_welcome']);
  });

  it('runs the flows instead while the session is routed to CALM', async () => {
    const events = await conversation.send('/greet', [
      { command: 'set slot', name: 'route_session_to_calm', value: true },
      { command: 'start flow', flow: 'unused' },
    ]);
    expect(ran(events)).to.deep.equal(['utter_goodbye', 'utter_can_do_something_else']);
    expect(policiesOf(events)).to.include('FlowPolicy').and.not.include('RulePolicy');
  });
});

describe('Reading rules and stories', () => {
  it('reports a step it cannot read with STORIES_SCHEMA and keeps the rest of the story', () => {
    const root = mkdtempSync(join(tmpdir(), 'parley-stories-'));
    mkdirSync(join(root, 'data'));
    writeFileSync(join(root, 'config.yml'), 'recipe: default.v1\nassistant_id: stories\n');
    writeFileSync(join(root, 'domain.yml'), dedent(MOODBOT_DOMAIN));
    writeFileSync(join(root, 'data', 'flows.yml'), dedent(MOODBOT_FLOWS));
    writeFileSync(
      join(root, 'data', 'stories.yml'),
      'stories:\n  - story: odd\n    steps:\n      - intent: greet\n      - shout: hello\n      - action: utter_greet\n',
    );
    const { project, diagnostics } = validateProject({ project: root });
    const problem = diagnostics.find((item) => item.code === 'STORIES_SCHEMA');
    expect(problem?.line).to.equal(5);
    expect(project.assistant.dialogue.stories[0]?.steps.map((step) => step.kind)).to.deep.equal([
      'intent',
      'action',
    ]);
  });
});
