import type { Severity } from './errors.js';

interface CodeInfo {
  readonly severity: Severity;
  /** what the code means, for docs/diagnostics.md */
  readonly summary: string;
  /** the default hint printed under the message */
  readonly hint: string;
}

/**
 * The catalogue of load and validation diagnostics. Codes are stable: tests, docs and users rely on them.
 * Add new codes; never rename or reuse one. One file on purpose, though long: it is a table, read as a
 * whole by docs/diagnostics.md's generator and by whoever picks a new code, and split by topic it would
 * hide a code used twice.
 */
export const DIAGNOSTIC_CODES = {
  // Files and YAML
  FILE_UNREADABLE: e('A file could not be read.', 'Check that the path exists and is readable.'),
  PATH_NOT_FOUND: e(
    'A path given on the command line does not exist.',
    'Check the path flags: -p/--project (the assistant folder; for `parley run`, --project), --config, --domain, --data, --endpoints, --credentials.',
  ),
  YAML_SYNTAX: e('A YAML file does not parse.', 'Fix the YAML syntax at the position shown.'),
  CHECKS_SKIPPED: i(
    'A domain or data file is missing or does not parse: the findings of other files about names it may declare (unknown slots, responses, actions, intents, flows) are left out rather than listed as errors of their own.',
    'Fix the file reported above; validate again to see those checks.',
  ),
  YAML_DUPLICATE_KEY: e('A YAML mapping has the same key twice.', 'Remove or rename one of the keys.'),
  ENV_VAR_UNSET: e(
    'A `${VAR}` reference names an environment variable that is not set.',
    'Set the environment variable, or quote the value if the `$` is meant literally.',
  ),
  ENV_VAR_QUOTED: w(
    'A quoted `"${VAR}"` in endpoints.yml or credentials.yml is not interpolated (Rasa expands only unquoted values); the text is used as written.',
    'Write the value unquoted, `key: ${VAR}`; to keep a literal `${`, leave it quoted and ignore this warning.',
  ),
  // Schemas, one per file kind
  DOMAIN_SCHEMA: e('A domain file does not match the domain format.', 'See the Rasa domain reference.'),
  FLOWS_SCHEMA: e('A flows file does not match the flows format.', 'See the Rasa flows reference.'),
  FLOWS_IGNORED_KEY: w(
    'A flows file has a key where Rasa reads none (in a `next` branch, an `nlu_trigger` item or a rejection), or one its schema allows but no step uses (`reset_after_flow_ends` on a set_slots step); it is ignored, as Rasa ignores it.',
    'Remove the key: a branch reads only `if`, `then` and `else`.',
  ),
  DOMAIN_IGNORED_KEY: w(
    'A domain file has a key Rasa reads past (top level, slot, slot mapping, intent, entity, action, form, session_config, config or response variation); Parley ignores it.',
    'Remove the key, or check its spelling and indentation.',
  ),
  DOMAIN_KEY_MISSPELT: e(
    'A top-level domain key is a near miss of a section (`respones:` for `responses:`), and flows or other files use names that section would declare: one error at the key, in place of an error at every use.',
    'Fix the spelling the hint suggests.',
  ),
  CONFIG_IGNORED_KEY: w(
    'config.yml has a top-level key Rasa reads past; it is ignored.',
    'Remove the key, or check its spelling (recipe, language, assistant_id, pipeline, policies).',
  ),
  ENDPOINTS_IGNORED_KEY: w(
    'endpoints.yml has a top-level key that names no section Rasa reads (a misspelt `tracker_stor:`, say); it is ignored, as in Rasa, and the section it stands for keeps its default.',
    'Check its spelling against the sections the message lists (action_endpoint, tracker_store, lock_store, nlg, model_groups, ...).',
  ),
  ENDPOINTS_KEY_MISSPELT: w(
    'A key of an endpoints.yml section (action_endpoint, tracker_store, lock_store, ...) is unknown and a near miss of a key the section reads and lacks (`urll:` for `url:`); it is passed on unread, as Rasa passes extra keys to the implementation, so the setting it stands for keeps its default.',
    'Fix the spelling the hint suggests; a key meant for a custom implementation can stay, and the warning be ignored.',
  ),
  NLU_SCHEMA: e(
    'An NLU training data file does not match the NLU format.',
    'See the Rasa NLU data reference.',
  ),
  CONFIG_SCHEMA: e('config.yml does not match the config format.', 'See the Rasa config reference.'),
  ENDPOINTS_SCHEMA: e('endpoints.yml has a key of the wrong type.', 'See the Rasa endpoints reference.'),
  CREDENTIALS_SCHEMA: e(
    'credentials.yml has a key of the wrong type.',
    'Each channel maps to a map or null.',
  ),
  CREDENTIALS_UNKNOWN_CHANNEL: w(
    "A credentials.yml channel name is no channel Parley ships, none of Rasa's built-in channels and no module of the project (a misspelt `socketi0:`, say); `parley run` skips it, where Rasa would refuse to start.",
    'Check the spelling (rest, callback, socketio), or name a custom channel by its module path (docs/channels.md).',
  ),
  E2E_SCHEMA: e('An e2e test file does not match the e2e test format.', 'See the Rasa e2e test reference.'),
  E2E_TEST_FILE_INVALID: w(
    'An e2e test file does not read (YAML syntax or the e2e test format, the underlying code is named); validate, train and run go on without it, and `parley test e2e` reports it as an error.',
    'Fix the test file at the position shown.',
  ),
  // Project shape
  CONFIG_MISSING: w(
    'No config.yml was found; defaults are used.',
    'Add a config.yml with recipe, language, assistant_id.',
  ),
  CONFIG_ASSISTANT_ID_MISSING: w(
    'config.yml has no assistant_id, or still has the placeholder value.',
    'Set a unique assistant_id in config.yml.',
  ),
  RASA_VERSION_UNKNOWN: e(
    '`parley.rasa_version` in config.yml names a Rasa version whose behaviour Parley does not know.',
    'Use one of the versions listed in the message (3.7 onward), quoted: `rasa_version: "3.13"`.',
  ),
  // What Parley does not run (src/project/compatibility/, rendered in docs/compatibility.md)
  CONFIG_COMPONENT_REPLACED: w(
    'A pipeline component or policy of config.yml is not run; Parley runs its own equivalent in its place.',
    'Nothing to change: the message says what runs instead (docs/compatibility.md lists every component).',
  ),
  CONFIG_COMPONENT_IGNORED: w(
    'A pipeline component or policy of config.yml is not run, and nothing runs in its place.',
    'Remove it from config.yml if you do not rely on it; the message says what differs from Rasa.',
  ),
  CONFIG_COMPONENT_UNKNOWN: w(
    'A pipeline component or policy of config.yml is neither a Rasa component Parley knows nor one it can load (a custom `module.Class`); it is not run.',
    'Check the name; custom Python components cannot run in Parley.',
  ),
  CONFIG_COMPONENT_UNSUPPORTED: e(
    'A pipeline component or policy of config.yml is one Parley refuses to run.',
    'Replace it with the component the message names.',
  ),
  CONFIG_CUSTOM_PROMPT: w(
    'A custom prompt template (`prompt_template` or `prompt`) is not used; Parley uses its own prompt.',
    'Nothing to change; remove the key if you do not rely on the custom prompt.',
  ),
  NLG_REPHRASER_NOT_RUN: w(
    'endpoints.yml configures the response rephraser (`nlg: type: rephrase`) or another NLG class; Parley does not run it and sends responses as written in the domain.',
    'Write the responses as they should be said, or serve them from an NLG server (`nlg: url: ...`).',
  ),
  DOMAIN_MISSING: e('No domain was found.', 'Add a domain.yml file or a domain/ folder.'),
  DOMAIN_DUPLICATE: w(
    'The same slot, response, action or intent is declared in two domain files.',
    'Keep one declaration; the first one loaded wins.',
  ),
  FLOWS_MISSING: w('The project defines no flows.', 'Add flows under data/ or flows/.'),
  // Flows
  FLOW_DUPLICATE_ID: e('Two flows have the same id.', 'Flow ids must be unique across all files.'),
  FLOW_INVALID_ID: e('A flow id has characters Rasa does not allow.', 'Use letters, digits, `_` and `-`.'),
  FLOW_MISSING_DESCRIPTION: e(
    'A flow has no description.',
    'Describe what the flow does; it is used for understanding and for A2A skills.',
  ),
  FLOW_DUPLICATE_DESCRIPTION: e('Two flows have the same description.', 'Flow descriptions must be unique.'),
  FLOW_DUPLICATE_NAME: e('Two flows have the same name.', 'Flow names must be unique.'),
  FLOW_EMPTY: e('A flow has no steps.', 'Add at least one step.'),
  STEP_EMPTY_SEQUENCE: e(
    'A `then`/`else` branch has an empty list of steps.',
    'Add steps or point at a step id.',
  ),
  STEP_DUPLICATE_ID: e('Two steps of a flow have the same id.', 'Step ids must be unique within a flow.'),
  STEP_RESERVED_ID: e(
    'A step uses a reserved id.',
    '`START`, `END` and ids starting with `NEXT:` are reserved.',
  ),
  STEP_MISSING_NEXT: e(
    'The last step of a `then`/`else` branch has no `next`.',
    'Add `next: END` or `next: <step id>` to the last step of the branch.',
  ),
  STEP_UNKNOWN_NEXT: e(
    'A `next` points at a step id that does not exist in the flow.',
    'Use an existing step id or END.',
  ),
  STEP_UNREACHABLE: e(
    'A step can never be reached from the start of its flow.',
    'Remove it or add a `next` that leads to it.',
  ),
  BRANCH_MISSING_ELSE: e(
    'A list of `next` branches has no `else`.',
    'End the list with `- else: <step id or steps>`.',
  ),
  BRANCH_ELSE_NOT_LAST: e(
    'An `else` branch is followed by more branches.',
    'Put `else` last; later branches never run.',
  ),
  LINK_NOT_LAST: e(
    'A `link` step has a `next`.',
    'A link ends its flow: remove the `next`; steps after a link run only if another step jumps to them.',
  ),
  LINK_UNKNOWN_FLOW: e('A `link` step names a flow that does not exist.', 'Check the flow id.'),
  LINK_TO_PATTERN: e(
    'A `link` step links to a pattern.',
    'Only pattern_human_handoff (and pattern_chitchat from patterns).',
  ),
  LINK_FROM_INTERNAL_ERROR: e(
    'pattern_internal_error links to another flow.',
    'pattern_internal_error may not link.',
  ),
  CALL_UNKNOWN_FLOW: e('A `call` step names a flow that does not exist.', 'Check the flow id.'),
  CALL_TO_PATTERN: e('A `call` step calls a pattern.', 'Patterns cannot be called.'),
  CALL_FROM_PATTERN: e('A pattern uses a `call` step.', 'Patterns cannot call flows.'),
  CALLED_FLOW_HAS_LINK: e(
    'A flow reached through `call` contains a `link` step.',
    'Use `call` or `link`, not both.',
  ),
  SUB_AGENT_CONFIG_INVALID: e(
    'A `sub_agents/<folder>/config.yml` has a missing, unknown or malformed setting.',
    'Write `agent: {name, protocol: a2a, description}` and `configuration: {agent_card: <URL or file>}` (optional: auth, timeout, max_retries, result_slots).',
  ),
  SUB_AGENT_PROTOCOL_UNSUPPORTED: e(
    'A sub-agent uses `protocol: rasa` (a ReAct LLM agent), which Parley does not run.',
    'Call an A2A agent instead: `protocol: a2a` with `configuration.agent_card`.',
  ),
  SUB_AGENT_CARD_NOT_FOUND: e(
    "A sub-agent's `configuration.agent_card` names a file that does not exist.",
    'Give the path of the agent card JSON (relative to the project folder) or its http(s) URL.',
  ),
  SUB_AGENT_NAME_CONFLICT: e(
    'Two sub-agents have the same `agent.name`, or a sub-agent has the id of a flow.',
    'Rename one: `call:` must name exactly one flow or agent.',
  ),
  SUB_AGENT_EXIT_IF_UNSUPPORTED: e(
    'A call of a sub-agent has `exit_if`, which makes Rasa run its ReAct task agent instead of the A2A agent.',
    'Remove `exit_if`: an A2A agent ends the call itself by completing its task.',
  ),
  MCP_SERVERS_INVALID: e(
    '`mcp_servers` in endpoints.yml has an entry Parley cannot use (no name or url, a type other than http or https, a name used twice, an unsupported auth, an unset secret).',
    'Give each server `name`, `url` (http:// or https://) and `type: http` or `https`; write secrets as `api_key: ${VAR}` or `token: ${VAR}`.',
  ),
  MCP_SERVER_UNKNOWN: e(
    'A tool call step names an `mcp_server` that endpoints.yml does not list.',
    'Add the server to `mcp_servers` in endpoints.yml, or fix the name.',
  ),
  MCP_MAPPING_INVALID: e(
    'A tool call step needs both `mcp_server` and a `mapping` with `input` and `output` lists.',
    'Write `mcp_server: <name>` and `mapping: {input: [{param, slot}], output: [{slot, value}]}` (either list may be empty).',
  ),
  MCP_MAPPING_UNKNOWN_SLOT: e(
    'A tool call mapping names a slot the domain does not define.',
    'Define the slot in the domain or fix its name.',
  ),
  MCP_OUTPUT_EXPRESSION_INVALID: e(
    'A `mapping.output` value is not a valid Jinja expression over `result`.',
    'Write a bare expression such as `result.structuredContent.status` or `result.content[0].text`, without {{ }}.',
  ),
  NLU_TRIGGER_DUPLICATE_INTENT: e(
    'Two flows use the same intent as `nlu_trigger`.',
    'An intent can trigger one flow.',
  ),
  NLU_TRIGGER_UNKNOWN_INTENT: w(
    'An `nlu_trigger` names an intent that is neither in the domain nor in the NLU data.',
    'Declare the intent or add training examples for it.',
  ),
  PERSISTED_SLOT_NOT_IN_FLOW: e(
    'A slot in `persisted_slots` is not collected or set by the flow or by a flow it calls.',
    'Persist only slots the flow collects or sets.',
  ),
  PERSISTED_SLOTS_WITH_RESET: e(
    'A flow combines `persisted_slots` with a collect step using `reset_after_flow_ends`.',
    'Use only `persisted_slots`.',
  ),
  COLLECT_UNKNOWN_SLOT: e(
    'A collect step names a slot the domain does not declare.',
    'Declare the slot in the domain.',
  ),
  COLLECT_INVALID_SLOT_NAME: e('A collect step names an invalid slot.', 'Use letters, digits, `_` and `-`.'),
  COLLECT_LIST_SLOT: e('A collect step collects a list slot.', 'List slots cannot be collected.'),
  COLLECT_NO_QUESTION: e(
    'A collect step has no way to ask for its slot.',
    'Add a response `utter_ask_<slot>` or an action `action_ask_<slot>`, or give the slot an initial value.',
  ),
  COLLECT_TWO_QUESTIONS: e(
    'Both `utter_ask_<slot>` and `action_ask_<slot>` exist for a collected slot.',
    'Keep one of them.',
  ),
  SET_SLOTS_UNKNOWN_SLOT: e(
    'A set_slots step names a slot the domain does not declare.',
    'Declare the slot.',
  ),
  STEP_RESERVED_SLOT: e(
    'A collect or set_slots step names `dialogue_stack`, a slot Rasa reserves for the dialogue stack.',
    'Use a slot of your own.',
  ),
  SET_SLOTS_LIST_SLOT: e('A set_slots step sets a list slot.', 'List slots cannot be set by set_slots.'),
  SET_SLOTS_BAD_VALUE: w(
    'A set_slots value does not fit the slot type.',
    'Use a value of the slot type or null.',
  ),
  ACTION_UNKNOWN: e(
    'An action step names something that is neither a response, a declared custom action nor a built-in action.',
    'Add the response to the domain or list the custom action under `actions:`.',
  ),
  REJECTION_UNKNOWN_RESPONSE: e(
    'A rejection names a response that does not exist.',
    'Add the response to the domain.',
  ),
  CONDITION_SYNTAX: e('A condition does not parse.', 'Check the condition syntax (pypred).'),
  CONDITION_NAMESPACE: e(
    'A condition reads a name without the `slots.` or `context.` prefix; it is always undefined.',
    'Write `slots.<name>` (or quote the value if it is a string).',
  ),
  CONDITION_UNKNOWN_SLOT: e(
    'A condition reads a slot the domain does not declare.',
    'Declare the slot or fix the name.',
  ),
  CONDITION_BOOL_VALUE: e(
    'A bool slot is compared with something other than true, false or null.',
    'Compare with true/false.',
  ),
  CONDITION_CATEGORICAL_VALUE: e(
    'A categorical slot is compared with a value it does not declare.',
    'Compare with one of the slot values.',
  ),
  // Domain
  SLOT_RESERVED_NAME: e('A slot uses a reserved name.', '`dialogue_stack` is reserved by the engine.'),
  SLOT_CATEGORICAL_NO_VALUES: e(
    'A categorical slot declares no values.',
    'List the allowed values under `values:`.',
  ),
  SLOT_INITIAL_VALUE_TYPE: w(
    'A slot initial value does not fit the slot type.',
    'Use a value of the slot type.',
  ),
  SLOT_MAPPING_UNKNOWN_ENTITY: w('A from_entity mapping names an undeclared entity.', 'Declare the entity.'),
  SLOT_MAPPING_UNKNOWN_FLOW: e(
    'A mapping condition names a flow that does not exist.',
    'Check `active_flow`.',
  ),
  RESPONSE_EMPTY: e(
    'A response variation has nothing to send.',
    'Give it a text, buttons, image or custom payload.',
  ),
  RESPONSE_UNKNOWN_SLOT: w(
    'A response interpolates `{name}` but no slot has that name.',
    'Declare the slot, or make sure the custom action that utters it passes the value.',
  ),
  BUTTON_PAYLOAD_EMPTY: e('A button has an empty payload.', 'Give the button a payload.'),
  BUTTON_PAYLOAD_INVALID: e(
    'A `/SetSlots(...)` button payload does not parse.',
    'Use `/SetSlots(slot=value, ...)`.',
  ),
  BUTTON_PAYLOAD_TOO_MANY_SLOTS: e(
    'A `/SetSlots(...)` payload has more than 10 `=` signs: Rasa counts them in the whole text, values included, and then sets no slot.',
    'Set at most 10 slots and keep `=` out of the values.',
  ),
  BUTTON_UNKNOWN_SLOT: e(
    'A `/SetSlots(...)` payload names a slot the domain does not declare.',
    'Declare the slot.',
  ),
  BUTTON_UNKNOWN_INTENT: w('A `/intent` button payload names an unknown intent.', 'Declare the intent.'),
  BUTTON_FREE_FORM_PAYLOAD: i(
    'A button payload is free text (e.g. `yes`); it goes through understanding like a typed message, as in Rasa.',
    'Use `/SetSlots(...)` for deterministic buttons.',
  ),
  ENDPOINTS_SECTION_NOT_RUN: w(
    'endpoints.yml has a section Rasa acts on and Parley reads without acting on it (tracing, OTLP metrics, model server, MCP servers, external NLU server).',
    'Remove the section, or see docs/compatibility.md for what Parley does instead.',
  ),
  // retired, never reused: said that Kafka was not run, before the Kafka broker existed
  EVENT_BROKER_NOT_RUN: w(
    'No longer emitted: releases before the Kafka event broker said with it that `event_broker: type: kafka` was read and nothing published. Kafka now runs and is warned about with EVENT_BROKER_KAFKA_UNVERIFIED.',
    'Nothing to do; a filter on this code can move to EVENT_BROKER_KAFKA_UNVERIFIED.',
  ),
  EVENT_BROKER_KAFKA_UNVERIFIED: w(
    "endpoints.yml configures a Kafka event broker (`event_broker: type: kafka`). Parley publishes to it with kafkajs, tested against librdkafka's built-in mock Kafka cluster, not against Apache Kafka itself (none runs where Parley is built): SASL, TLS, several brokers and leader changes have not been tried on a real cluster.",
    'Try the broker on your cluster before relying on it (docs/event-brokers.md says what to check), or use `type: pika` (RabbitMQ) or `type: sql`.',
  ),
  CUSTOM_ACTIONS_NOT_IMPLEMENTED: w(
    'The domain declares custom actions that nothing Parley runs provides: no action server `url` in `action_endpoint`, and no TypeScript or JavaScript module in the actions module (`actions_module`, default `actions/`) exports them; Python files there are not run. Each call fails and the user hears `utter_internal_error_rasa`. `validate` imports the modules and names the exact actions (when every module loads); `parley run` says it again at start-up.',
    'Write the actions as TypeScript modules in the actions folder (`export default defineAction({ name, run })`), or set `action_endpoint.url` to a Rasa SDK action server running the Python actions.',
  ),
  ACTIONS_PACKAGE_NOT_ESM: e(
    'Action modules (`.ts` or `.js`) use `import`/`export`, but the nearest package.json above them has no `"type": "module"` (or there is none), so Node would load them as CommonJS and `parley run` would fail to import them.',
    'Add `"type": "module"` to the package.json of the assistant (`parley init` writes one), or name the modules `.mts`/`.mjs`.',
  ),
  ACTION_MODULE_IMPORT_FAILED: e(
    "An action module does not load when imported as `parley run` imports it: a syntax error, an import that does not resolve (a package not installed, a wrong relative path), or an error thrown at load; the loader's message is quoted.",
    "Fix the module at the position shown; a missing package is installed with `npm install <name>` in the assistant's folder (`parley` itself too).",
  ),
  ACTION_MODULE_EXPORTS_NO_ACTION: w(
    'A module of the actions folder exports no action (an object with a string `name` and a `run` function, as `defineAction` returns) and no other action module imports it, so nothing of it runs.',
    'Export the action: `export const myAction = defineAction({ name, run })` (or `export default`); a helper module is fine once an action module imports it.',
  ),
  // A2A server (endpoints.yml `a2a_server`)
  A2A_CONFIG_INVALID: e(
    'An `a2a_server` setting in endpoints.yml has the wrong type or is out of range.',
    'See docs/a2a.md for the keys and their values.',
  ),
  A2A_DESCRIPTION_MISSING: e(
    '`a2a_server` has no `description`; the AgentCard needs it.',
    'Describe what the assistant does for a calling agent: `description: "..."`.',
  ),
  A2A_URL_INVALID: e(
    '`a2a_server.url` is not an absolute http(s) URL without query, fragment or credentials.',
    'Write the public base URL callers use, e.g. `url: "https://bot.example.com/agents/bank"`.',
  ),
  A2A_AUTH_INVALID: e(
    '`a2a_server.auth` cannot verify tokens safely: key source, algorithms, issuer or audience.',
    'Set `jwks_url` (with `issuer` and `audience`) or a `secret` of at least 32 characters.',
  ),
  A2A_PUSH_HOST_INVALID: e(
    'An entry of `a2a_server.push_notification_allowed_hosts` is not a host name.',
    'List host names only (`hooks.example.com`, or `*.example.com` for its subdomains): no scheme, port or path.',
  ),
  A2A_UNKNOWN_KEY: w(
    '`a2a_server` has a key Parley does not know; it is ignored.',
    'Check its spelling against docs/a2a.md.',
  ),
  A2A_AGENT_CARD_INVALID: e(
    'The static AgentCard of `a2a_server.agent_card_path` cannot be read or is not an AgentCard (checked when the server starts).',
    'Point agent_card_path at a JSON AgentCard with name, description, version and skills.',
  ),
  // Knowledge search (EnterpriseSearchPolicy)
  KNOWLEDGE_VECTOR_STORE_REPLACED: w(
    'EnterpriseSearchPolicy is configured: Parley answers from a local keyword (BM25) index of the `.txt` documents in `vector_store.source` (default ./docs) instead of the FAISS embeddings, Qdrant, Milvus or custom vector store Rasa would use.',
    'Nothing to change to run offline; see docs/knowledge.md for what differs from a vector search.',
  ),
  KNOWLEDGE_SEARCH_NOT_TRIGGERED: w(
    "EnterpriseSearchPolicy is configured, but pattern_search never runs `action_trigger_search` (Rasa's default pattern_search only utters `utter_no_knowledge_base`): knowledge questions are not answered from the documents, in Rasa as in Parley.",
    'Override pattern_search in your flows so that it searches: `pattern_search:` with `steps:` `- action: action_trigger_search` (docs/knowledge.md).',
  ),
  KNOWLEDGE_DOCUMENTS_MISSING: w(
    "The EnterpriseSearchPolicy's document folder is missing or holds no `.txt` files: there is no knowledge base, and pattern_search answers `utter_no_knowledge_base` (Rasa stops the training instead).",
    'Put the documents as .txt files in the folder (default ./docs), or point vector_store.source at them.',
  ),
  // NLU data
  NLU_DUPLICATE_EXAMPLE: w('The same NLU example appears more than once.', 'Remove the duplicate.'),
  NLU_CONFLICTING_EXAMPLE: e(
    'The same NLU example is listed under two intents.',
    'Keep it under one intent.',
  ),
  NLU_BAD_ANNOTATION: e('An entity annotation in an NLU example is malformed.', 'Use `[text](entity)`.'),
  // Coexistence of CALM and the NLU-based system (rules and stories)
  COEXISTENCE_ROUTER_CONFIG: e(
    'A coexistence router (IntentBasedRouter, LLMBasedRouter) in config.yml lacks the entries Rasa requires.',
    'IntentBasedRouter needs calm_entry.sticky, nlu_entry.sticky and nlu_entry.non_sticky (lists of intents); LLMBasedRouter needs calm_entry.sticky (a description).',
  ),
  COEXISTENCE_ROUTING_SLOT: e(
    'config.yml names a coexistence router, but the domain has no bool slot `route_session_to_calm`.',
    'Add `route_session_to_calm: {type: bool, influence_conversation: false}` under slots, as Rasa requires.',
  ),
  STORIES_SCHEMA: e(
    "A stories or rules file does not match Rasa's story/rule format.",
    'Each story or rule has a name (`story:` / `rule:`) and `steps`: intent, action, slot_was_set, active_loop, checkpoint or or.',
  ),
  STORY_UNKNOWN_NAME: w(
    'A story or rule names an intent or action the domain does not declare; that step never matches.',
    'Declare it in the domain, or fix its spelling.',
  ),
  FORMS_NOT_RUN: w(
    'The domain declares forms: Parley does not run forms (active loops) for the NLU-based policies.',
    'Write the form as a flow with collect steps, or keep the assistant on Rasa for it.',
  ),
} as const satisfies Record<string, CodeInfo>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

function e(summary: string, hint: string): CodeInfo {
  return { severity: 'error', summary, hint };
}

function w(summary: string, hint: string): CodeInfo {
  return { severity: 'warning', summary, hint };
}

function i(summary: string, hint: string): CodeInfo {
  return { severity: 'info', summary, hint };
}
