import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dedent } from '../support/inline-assistant.js';

/** Writes an inline domain and flows (plus a config and a REST channel) into a fresh project folder. */
export function writeProject(files: { readonly domain: string; readonly flows: string }): string {
  const root = mkdtempSync(join(tmpdir(), 'parley-ops-'));
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'domain.yml'), dedent(files.domain));
  writeFileSync(join(root, 'data', 'flows.yml'), dedent(files.flows));
  writeFileSync(join(root, 'config.yml'), 'recipe: default.v1\nlanguage: en\nassistant_id: ops-test\n');
  writeFileSync(join(root, 'credentials.yml'), 'rest:\n');
  return root;
}

/** A small assistant for the observability tests: a greeting, a question with buttons, a failing action. */
export const OBSERVED_PROJECT = {
  domain: `
    version: "3.1"
    slots:
      account:
        type: categorical
        values: [checking, savings]
        mappings: [{type: from_llm}]
    actions:
      - action_missing
    responses:
      utter_greet:
        - text: Hello!
      utter_ask_account:
        - text: Which account?
          buttons:
            - {title: Checking, payload: "/SetSlots(account=checking)"}
            - {title: Savings, payload: "/SetSlots(account=savings)"}
      utter_done:
        - text: "Done: {account}."
  `,
  flows: `
    flows:
      greet:
        description: say hello
        nlu_trigger: [{intent: greet}]
        steps:
          - action: utter_greet
      balance:
        description: show a balance
        nlu_trigger: [{intent: balance}]
        steps:
          - collect: account
          - action: utter_done
      broken:
        description: runs a custom action that has no implementation
        nlu_trigger: [{intent: broken}]
        steps:
          - action: action_missing
  `,
};
