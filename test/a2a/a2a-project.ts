/** A small assistant with an A2A server block, as files (for servers) or loaded (for card generation). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Assistant } from '../../src/core/assistant.js';
import { validateProject } from '../../src/project/validate/index.js';
import { dedent } from '../support/inline-assistant.js';
import { writeInlineProject } from '../support/inline-project.js';
import type { InlineProjectFiles } from '../support/inline-project.js';

export const A2A_DOMAIN = `
  version: "3.1"
  session_config:
    session_expiration_time: 60
    start_session_after_expiry: false
  intents: [transfer_money, greet]
  slots:
    recipient: {type: text, mappings: [{type: from_llm}]}
    amount: {type: float, mappings: [{type: from_llm}]}
    logged_in: {type: bool, mappings: [{type: from_llm}]}
    date_of_birth: {type: text, mappings: [{type: from_llm}]}
  responses:
    utter_ask_recipient: [{text: Who should get the money?}]
    utter_ask_amount: [{text: How much?}]
    utter_ask_date_of_birth: [{text: Your date of birth?}]
    utter_done: [{text: Done.}]
    utter_balance: [{text: You have 100.}]
`;

export const A2A_FLOWS = `
  flows:
    transfer_money:
      name: send money
      description: Send money to another person.
      nlu_trigger:
        - intent: transfer_money
      steps:
        - collect: recipient
        - collect: amount
        - action: utter_done
    check_balance:
      name: check the balance
      description: Tell the user their balance, once logged in.
      if: slots.logged_in
      steps:
        - action: utter_balance
    verify_identity:
      if: False
      name: verify identity
      description: Ask for the date of birth; only started from other flows.
      steps:
        - collect: date_of_birth
`;

export const A2A_NLU = `
  version: "3.1"
  nlu:
    - intent: transfer_money
      examples: |
        - send money to [Anna](recipient)
        - transfer 20 dollars
        - pay my rent
        - wire money abroad
        - move money to a friend
        - send cash
    - intent: greet
      examples: |
        - hello
`;

export const A2A_ENDPOINTS = `
  a2a_server:
    description: A small banking sub-agent.
`;

export function writeA2aProject(overrides: Partial<InlineProjectFiles> = {}): string {
  return writeInlineProject({
    domain: A2A_DOMAIN,
    flows: A2A_FLOWS,
    nlu: A2A_NLU,
    endpoints: A2A_ENDPOINTS,
    ...overrides,
  });
}

/** Loads and validates a project folder; any error fails the test. */
export function loadAssistant(root: string): Assistant {
  const { project, diagnostics, hasErrors } = validateProject({ project: root });
  if (hasErrors)
    throw new Error(
      JSON.stringify(
        diagnostics.filter((d) => d.severity === 'error'),
        null,
        2,
      ),
    );
  return project.assistant;
}

export function a2aAssistant(endpoints = A2A_ENDPOINTS): Assistant {
  return loadAssistant(writeA2aProject({ endpoints }));
}

/** Writes a file into a project folder (e.g. a static AgentCard). */
export function writeProjectFile(root: string, path: string, content: string): void {
  writeFileSync(join(root, path), dedent(content));
}
