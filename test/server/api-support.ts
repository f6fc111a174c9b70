/** A real `parley run --enable-api` server on port 0 over a small inline assistant, and a fetch helper. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import type { TrackerStore } from '../../src/core/ports.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import type { ApiAuthConfig } from '../../src/server/auth.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { dedent } from '../support/inline-assistant.js';

export const DOMAIN = `
  version: "3.1"
  intents: [greet, check_balance, affirm]
  entities: [account]
  slots:
    account:
      type: categorical
      values: [checking, savings]
      mappings: [{type: from_entity, entity: account}]
  responses:
    utter_greet:
      - text: "Hello!"
    utter_ask_account:
      - text: Which account?
    utter_done:
      - text: "Done: {account}."
`;

export const FLOWS = `
  flows:
    greet:
      description: say hello to the user
      nlu_trigger: [{intent: greet}]
      steps:
        - action: utter_greet
    balance:
      name: check a balance
      description: show the balance of an account
      nlu_trigger: [{intent: {name: check_balance, confidence_threshold: 0.5}}]
      steps:
        - collect: account
          next:
            - if: slots.account = "savings"
              then: done
            - else: done
        - id: done
          action: utter_done
`;

export const NLU = `
  version: "3.1"
  nlu:
    - intent: greet
      examples: |
        - hello
        - hi there
        - good morning
        - hey
        - hello there
    - intent: check_balance
      examples: |
        - what is my balance
        - show my [savings](account) balance
        - how much money is in my [checking](account) account
        - balance of my [savings](account) account please
        - check my balance
    - intent: affirm
      examples: |
        - yes
        - yes please
        - sure
        - correct
`;

export interface ApiServerOptions {
  readonly auth?: ApiAuthConfig;
  readonly enableApi?: boolean;
  readonly credentials?: string;
  readonly trackerStore?: TrackerStore;
  /** config.yml and endpoints.yml (default: the NLU pipeline, no endpoints) */
  readonly config?: string;
  readonly endpoints?: string;
}

export interface ApiServer {
  readonly server: ParleyServer;
  readonly store: TrackerStore;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  readonly body?: unknown;
  /** sent as it is (malformed JSON) */
  readonly rawBody?: string;
  readonly headers?: Record<string, string>;
}

export interface ApiResponse {
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
  readonly type: string;
}

/** Rasa's error body, as the tests compare it (everything but the version). */
export function rasaError(status: number, reason: string, details: Record<string, unknown> = {}) {
  return { status: 'failure', reason, code: status, details, help: null };
}

export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const root = mkdtempSync(join(tmpdir(), 'parley-api-'));
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'domain.yml'), dedent(DOMAIN));
  writeFileSync(join(root, 'data', 'flows.yml'), dedent(FLOWS));
  writeFileSync(join(root, 'data', 'nlu.yml'), dedent(NLU));
  writeFileSync(
    join(root, 'config.yml'),
    options.config ? dedent(options.config) : 'recipe: default.v1\nlanguage: en\nassistant_id: api-test\n',
  );
  if (options.endpoints) writeFileSync(join(root, 'endpoints.yml'), dedent(options.endpoints));
  writeFileSync(join(root, 'credentials.yml'), options.credentials ?? 'rest:\n');
  const store = options.trackerStore ?? new MemoryTrackerStore();
  const server = await startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger: SILENT_LOGGER,
    trackerStore: store,
    enableApi: options.enableApi ?? true,
    env: {},
    ...(options.auth ? { auth: options.auth } : {}),
  });
  return {
    server,
    store,
    request: (method, path, requestOptions = {}) => send(server.baseUrl, method, path, requestOptions),
    close: () => server.close(),
  };
}

async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions,
): Promise<ApiResponse> {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...options.headers },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, type: response.headers.get('content-type') ?? '' };
}
