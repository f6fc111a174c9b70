import { expect } from 'chai';
import { validateProject } from '../../src/project/validate/index.js';
import { corpusRoot, describeWithCorpus } from '../support/corpus.js';

const CORPUS = corpusRoot();
const PROJECTS = [
  'rasa-quickstart',
  'starterpack-retail-banking-en',
  'starterpack-telco-en',
  'starterpack-insurance-en',
];

describeWithCorpus('the third-party corpus projects', () => {
  for (const name of PROJECTS) {
    it(`${name} loads and validates without errors`, () => {
      const result = validateProject({ project: `${CORPUS}/${name}` });
      const errors = result.diagnostics.filter((item) => item.severity === 'error');
      expect(errors, JSON.stringify(errors, null, 2)).to.deep.equal([]);
      expect(result.project.assistant.flows.userFlows.length).to.be.greaterThan(2);
      expect(result.project.tests.length).to.be.greaterThan(0);
    });
  }

  it('reads the banking transfer flow with Rasa step ids and default next links', () => {
    const { project } = validateProject({ project: `${CORPUS}/starterpack-retail-banking-en` });
    const flow = project.assistant.flows.get('transfer_money');
    expect(flow?.firstStepId).to.equal('transfer_money_0_utter_transfer_money_understand');
    const ids = flow?.steps.map((step) => step.id) ?? [];
    expect(ids.slice(0, 5)).to.deep.equal([
      'transfer_money_0_utter_transfer_money_understand',
      'transfer_money_1_collect_account_from',
      'transfer_money_2_collect_payee_name',
      'transfer_money_3_action_check_payee_existence',
      'transfer_money_4_call_add_payee',
    ]);
    expect(flow?.steps[1]?.next).to.deep.equal({
      kind: 'step',
      target: 'transfer_money_2_collect_payee_name',
    });
    const call = project.assistant.flows.step('transfer_money', 'transfer_money_4_call_add_payee');
    expect(call?.kind).to.equal('call');
    expect(call?.next).to.deep.equal({ kind: 'step', target: 'get_transfer_amount' });
  });

  it('lets project patterns replace the default ones and keeps the others', () => {
    const { project } = validateProject({ project: `${CORPUS}/starterpack-retail-banking-en` });
    const completed = project.assistant.flows.get('pattern_completed');
    expect(completed?.isDefault).to.equal(false);
    expect(completed?.steps.map((step) => step.kind)).to.deep.equal(['noop']);
    expect(project.assistant.flows.get('pattern_collect_information')?.isDefault).to.equal(true);
    expect(project.assistant.domain.responses.get('utter_flow_cancelled_rasa')?.isDefault).to.equal(true);
  });

  it('merges a domain split over many files (quickstart domain/ folder)', () => {
    const { project } = validateProject({ project: `${CORPUS}/rasa-quickstart` });
    const { domain } = project.assistant;
    expect(domain.slots.has('add_contact_handle')).to.equal(true);
    expect(domain.slots.has('remove_contact_handle')).to.equal(true);
    expect(domain.actions.has('add_contact')).to.equal(true);
  });

  it('reads YAML 1.2 scalars as Rasa does (Yes stays a string, a quoted ${amount} stays literal)', () => {
    const { project } = validateProject({ project: `${CORPUS}/starterpack-retail-banking-en` });
    const text = project.assistant.domain.responses.get('utter_ask_confirm_immediate_payment')?.variations[0]
      ?.text;
    expect(text).to.contain('${amount}');
  });
});
