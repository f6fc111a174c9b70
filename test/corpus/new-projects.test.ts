/**
 * The two corpus projects without upstream e2e tests (lakera-agent-security, calm-summit-masterclass),
 * loaded unchanged and driven end to end through their flows with payloads: `/SetSlots(...)`, the
 * `/session_start` intent of an nlu_trigger, and flow starts where a free-text message would need an
 * LLM (given by a command oracle of ours). The cases and oracles are in test/corpus/new-projects/, the
 * custom actions are test stubs (test/corpus/actions/). Besides the e2e assertions of each case, these
 * tests look at the whole conversations: which flows completed, the stack each one ends with, the
 * slots kept by persisted_slots, and when pattern_completed runs.
 */
import { expect } from 'chai';
import type { Event } from '../../src/core/events/types.js';
import { loadProject } from '../../src/project/load-project.js';
import { flowEvents, slotValues, startConversation, utterances } from '../support/inline-assistant.js';
import { describeWithCorpus } from '../support/corpus.js';
import { actions as calmActions } from './actions/calm-summit-masterclass.js';
import { actions as lakeraActions } from './actions/lakera-agent-security.js';
import { describeFailure, runProjectCases } from './new-projects/run.js';
import type { CaseRun, ProjectRun } from './new-projects/run.js';
import { corpusPath } from './projects.js';

/** The turns of a conversation: the events from each user message up to the next one. */
function userTurns(events: readonly Event[]): Event[][] {
  const turns: Event[][] = [];
  for (const event of events) {
    if (event.event === 'user') turns.push([]);
    turns.at(-1)?.push(event);
  }
  return turns;
}

function completedFlows(run: ProjectRun): Set<string> {
  const completed = [...run.cases.values()].flatMap((conversation) =>
    flowEvents(conversation.events).filter((line) => line.startsWith('flow_completed ')),
  );
  return new Set(completed.map((line) => line.slice('flow_completed '.length)));
}

function stackOf(conversation: CaseRun): string[] {
  return conversation.state.stack.map((frame) => `${frame.flow_id}@${frame.step_id}`);
}

function conversation(run: ProjectRun, name: string): CaseRun {
  const found = run.cases.get(name);
  if (!found) throw new Error(`no test case '${name}' ran`);
  return found;
}

/** Every free-text turn of the oracle only starts a flow (slots come from payloads). */
function freeTextTurns(run: ProjectRun): { user: string; commands: unknown }[] {
  return run.oracle.entries.flatMap((entry) =>
    entry.turns.flatMap((turn) => ('commands' in turn ? [{ user: turn.user, commands: turn.commands }] : [])),
  );
}

function expectEveryCasePasses(run: ProjectRun, atLeast: number): void {
  const failed = run.results.filter((result) => !result.passed).map(describeFailure);
  expect(failed, failed.join('\n')).to.deep.equal([]);
  expect(run.results.length).to.be.at.least(atLeast);
  expect(run.cases.size).to.equal(run.results.length);
}

describeWithCorpus('lakera-agent-security: flows driven end to end with payloads', function () {
  this.timeout(60_000);
  let run: ProjectRun;
  before(async () => {
    run = await runProjectCases('lakera-agent-security', lakeraActions);
  });

  it('passes every case of test/corpus/new-projects/lakera-agent-security/e2e', () => {
    expectEveryCasePasses(run, 9);
  });

  it('completes the search, financing, linked loan check, research, chitchat and pattern flows', () => {
    expect([...completedFlows(run)]).to.include.members([
      'pattern_session_start',
      'search_cars',
      'calculate_loan_estimate',
      'check_loan_qualification',
      'research_car_recommendations',
      'greeting',
      'what_can_you_do',
      'tell_a_joke',
      'thank_you',
      'more_car_details',
      'decline_behavior_modification',
      'pattern_correction',
      'pattern_continue_interrupted',
      'pattern_completed',
    ]);
  });

  it('starts flows from free text with a single start flow command, everything else is a payload', () => {
    const turns = freeTextTurns(run);
    expect(turns.length).to.be.greaterThan(0);
    for (const turn of turns) {
      expect(turn.commands, turn.user).to.have.length(1);
      expect(turn.commands, turn.user).to.have.nested.property('[0].command', 'start flow');
    }
  });

  it('ends every conversation with an empty stack, but the search interrupted by a joke waits for its budget', () => {
    for (const [name, ended] of run.cases) {
      if (name.startsWith('a joke in the middle of a search')) continue;
      expect(stackOf(ended), name).to.deep.equal([]);
    }
    expect(
      stackOf(conversation(run, 'a joke in the middle of a search, then the search asks its question again')),
    ).to.deep.equal([
      'search_cars@search_cars_4_collect_price_range_max',
      'pattern_collect_information@pattern_collect_information_4_action_listen',
    ]);
  });

  it('runs the (no-op) pattern_completed after flows, except those with run_pattern_completed: false', () => {
    const turns = userTurns(conversation(run, 'one-step flows answer and end').events);
    const afterEach = turns.map((turn) => {
      const flows = flowEvents(turn);
      const started = flows.find(
        (line) => line.startsWith('flow_started ') && line !== 'flow_started pattern_completed',
      );
      return [started?.slice('flow_started '.length), flows.includes('flow_started pattern_completed')];
    });
    expect(afterEach).to.deep.equal([
      ['greeting', true],
      ['what_can_you_do', false],
      ['tell_a_joke', false],
      ['thank_you', false],
      ['more_car_details', true],
      ['decline_behavior_modification', true],
    ]);
  });

  it('answers each of the 20 one-step flows with its response; pattern_completed only where not turned off', async () => {
    const { project } = loadProject({ project: corpusPath('lakera-agent-security') });
    const oneStep = project.assistant.flows.flows.filter(
      (flow) => !flow.isDefault && !flow.id.startsWith('pattern_') && flow.steps.length === 1,
    );
    expect(oneStep).to.have.length(20);
    expect(oneStep.filter((flow) => !flow.runPatternCompleted)).to.have.length(17);
    for (const flow of oneStep) {
      const [step] = flow.steps;
      if (step?.kind !== 'action') throw new Error(`${flow.id} is not one action`);
      const chat = await startConversation(project.assistant);
      const events = await chat.send(`(a message for ${flow.id})`, [
        { command: 'start flow', flow: flow.id },
      ]);
      expect(utterances(events), flow.id).to.deep.equal([step.action]);
      const completed = ['flow_started pattern_completed', 'flow_completed pattern_completed'];
      expect(flowEvents(events), flow.id).to.deep.equal([
        `flow_started ${flow.id}`,
        `flow_completed ${flow.id}`,
        ...(flow.runPatternCompleted ? completed : []),
      ]);
      expect(await chat.stack(), flow.id).to.deep.equal([]);
    }
  });

  it('keeps the persisted car price through the link into the loan check and resets the loan term', () => {
    const financed = conversation(
      run,
      'a used sedan is found, financed over 48 months, and the loan with a down payment is approved',
    );
    expect(financed.state.slots).to.include({
      car_price: 19500,
      car_type: 'sedan',
      chosen_car_model: '2021 Honda Civic',
      down_payment_amount: 2000,
      loan_term: null,
      confirm_start_loan_qualification: null,
      loan_approved: true,
      customer_id: 'CUST_12345',
    });
    const declined = conversation(
      run,
      'turning down the qualification check ends the estimate without linking',
    );
    expect(flowEvents(declined.events)).to.not.include('flow_started check_loan_qualification');
    expect(declined.state.slots).to.include({ car_price: 20000, loan_term: null });
  });

  it('corrects the car price through action_correct_flow_slot and goes back to the steps after it', () => {
    const corrected = conversation(
      run,
      'a corrected car price recomputes the estimate at once, and without a down payment one is suggested',
    );
    const turn = userTurns(corrected.events).find(
      (events) => events[0]?.event === 'user' && events[0].text === '/SetSlots(car_price=25000)',
    );
    expect(turn && slotValues(turn, 'car_price')).to.deep.equal([25000]);
    // the earlier answer to the loan term is kept: its question is not asked again
    expect(turn && slotValues(turn, 'loan_term')).to.deep.equal([]);
    expect(turn && slotValues(turn, 'loan_monthly_payment')).to.deep.equal([743.67]);
  });
});

describeWithCorpus('calm-summit-masterclass: flows driven end to end with payloads', function () {
  this.timeout(60_000);
  let run: ProjectRun;
  before(async () => {
    run = await runProjectCases('calm-summit-masterclass', calmActions);
  });

  it('passes every case of test/corpus/new-projects/calm-summit-masterclass/e2e', () => {
    expectEveryCasePasses(run, 9);
  });

  it('completes the transfer, the transaction search, the card replacement and the called address flow', () => {
    expect([...completedFlows(run)]).to.include.members([
      'transfer_money',
      'transaction_search',
      'replace_eligible_card',
      'confirm_address',
      'pattern_collect_information',
      'pattern_completed',
    ]);
  });

  it('ends the session-start pattern at its action_session_start step with a new session and an empty stack', () => {
    const started = conversation(run, "the session start greets and runs Rasa's own action_session_start");
    const [turn] = userTurns(started.events);
    expect(
      turn?.slice(-3).map((event) => (event.event === 'action' ? event.name : event.event)),
    ).to.deep.equal(['action_session_start', 'session_started', 'action_listen']);
    expect(flowEvents(turn ?? [])).to.deep.equal(['flow_started pattern_session_start']);
    expect(stackOf(started)).to.deep.equal([]);
    // the upstream override of action_session_start is not declared in the domain, so it never runs
    expect(started.state.slots).to.include({ address_line_1: null, city: null });
  });

  it('does not fill an ask_before_filling slot from the first message, and waits at its question', () => {
    const asked = conversation(
      run,
      'a slot with ask_before_filling is asked even when the first message gives it',
    );
    expect(slotValues(asked.events, 'lock_card')).to.deep.equal([null]);
    expect(stackOf(asked)).to.deep.equal([
      'replace_eligible_card@replace_eligible_card_1_collect_lock_card',
      'pattern_collect_information@pattern_collect_information_4_action_listen',
    ]);
  });

  it('ends every other conversation with an empty stack and the flow slots reset', () => {
    for (const [name, ended] of run.cases) {
      if (name.startsWith('a slot with ask_before_filling')) continue;
      expect(stackOf(ended), name).to.deep.equal([]);
      expect(ended.state.slots, name).to.include({
        recipient: null,
        amount: null,
        replacement_reason: null,
        lock_card: null,
        replace_card: null,
        confirm_address: null,
      });
    }
  });
});
