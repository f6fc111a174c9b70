import type { SchemaObject } from 'ajv';
import { COMMANDS } from '../../core/commands/index.js';
import { defaultPatternFiles } from '../../project/defaults.js';
import { flowsFileSchema, STEP_KINDS } from '../../project/schemas/flows.js';
import { row } from './types.js';
import type { FeatureRow, Section } from './types.js';

/** Flow keys Rasa reads (flows_yaml_schema.json and the flow readers of Rasa Pro 3.7–3.17). */
const RASA_FLOW_KEYS: Readonly<Record<string, string>> = {
  name: 'readable name in clarification, cancel and continue messages',
  description: 'LLM prompt and A2A skill text; a missing one is a warning',
  if: 'flow guard; bypassed by link, call and nlu_trigger intents',
  always_include_in_prompt: '',
  nlu_trigger: 'intent (and confidence_threshold) that starts the flow',
  persisted_slots: 'slots kept after the flow ends, called flows included',
  run_pattern_completed: '',
  steps: '',
  translation: 'flow names per language',
  metadata: '',
  file_path: 'set by the loader',
};

/** Step keys per kind in Rasa's schema; voice-only keys are read and kept for voice channels. */
const RASA_STEP_KEYS: Readonly<Record<string, readonly string[]>> = {
  action: ['action'],
  collect: [
    'collect',
    'utter',
    'ask_before_filling',
    'reset_after_flow_ends',
    'rejections',
    'force_slot_filling',
    'silence_timeout',
    'dtmf',
  ],
  set_slots: ['set_slots'],
  link: ['link'],
  call: ['call', 'exit_if', 'mcp_server', 'mapping'],
  noop: ['noop'],
};

const STEP_KEY_NOTES: Readonly<Record<string, string>> = {
  silence_timeout: 'read; only voice channels use it and Parley ships none',
  dtmf: 'read; only voice channels use it and Parley ships none',
  reset_after_flow_ends: 'deprecated in Rasa 3.11 in favour of persisted_slots; still honoured',
  exit_if:
    'makes Rasa run a ReAct task agent, which Parley does not; a plain `call` of an A2A sub-agent works (docs/orchestration.md)',
  mcp_server: 'MCP tool calls (Rasa 3.14): the tool of a server of `mcp_servers` (docs/orchestration.md)',
  mapping:
    'MCP tool calls: `input` slots become the arguments, `output` Jinja expressions over `result` set slots',
};

/** Step keys the schema accepts for calls of sub-agents, which validate refuses. */
const REFUSED_CALL_KEYS: ReadonlySet<string> = new Set(['exit_if']);

/** Legacy step kinds of Rasa 3.7 that later versions refuse. */
const LEGACY_STEP_KINDS = ['generation_prompt', 'entry_prompt', 'intent'];

/** Every pattern of Rasa's default_flows_for_patterns.yml (3.7–3.16) and the internal ones. */
const RASA_PATTERNS: Readonly<Record<string, string>> = {
  pattern_collect_information: '',
  pattern_validate_slot: 'domain slot validation (Rasa 3.12)',
  pattern_completed: '3.16 asks continue_conversation; older versions by --rasa-version',
  pattern_customer_satisfaction: 'Rasa 3.16',
  pattern_continue_interrupted: '',
  pattern_cancel_flow: '',
  pattern_correction: '',
  pattern_clarification: '',
  pattern_chitchat: '',
  pattern_search: 'answered from the local knowledge index when one is built',
  pattern_cannot_handle: '',
  pattern_internal_error: '',
  pattern_human_handoff: '',
  pattern_skip_question: '',
  pattern_repeat_bot_messages: '',
  pattern_session_start: '',
  pattern_restart: '',
  pattern_user_silence: 'pushed by voice channels only',
  pattern_code_change: '',
  pattern_session_end: 'internal to Rasa voice sessions; a project may define it as an ordinary flow',
  pattern_handle_digressions: 'experimental in Rasa; a project may define it as an ordinary flow',
};

/** Rasa's commands by their serialised `command` name (rasa/dialogue_understanding/commands). */
const RASA_COMMANDS: Readonly<Record<string, string>> = {
  'start flow': '',
  'set slot': '',
  'cancel flow': '',
  clarify: '',
  'skip question': '',
  chitchat: '',
  knowledge: '',
  'human handoff': 'removed from the LLM prompt in Rasa 3.16; still accepted',
  repeat: '',
  'cannot handle': '',
  'correct slot': '',
  error: '',
  'session start': '',
  restart: '',
  'change flow': '',
  'continue agent':
    'not read from LLM output; while a sub-agent holds the conversation, what the assistant cannot handle goes to it, which is what this command does in Rasa',
  'restart agent': 'not run: a completed sub-agent call is not restarted',
};

export function flowsSection(): Section {
  const flowKeys = schemaKeys(definition('flow'));
  const rows: FeatureRow[] = Object.entries(RASA_FLOW_KEYS).map(([key, note]) =>
    row(`flow key \`${key}\``, flowKeys.has(key) ? 'supported' : 'refused', note),
  );
  const stepKeys = stepKeysByKind();
  for (const [kind, keys] of Object.entries(RASA_STEP_KEYS)) {
    for (const key of keys) {
      const known = stepKeys.get(kind)?.has(key) ?? false;
      const support = known && !REFUSED_CALL_KEYS.has(key) ? 'supported' : 'refused';
      rows.push(row(`\`${kind}\` step: \`${key}\``, support, STEP_KEY_NOTES[key] ?? ''));
    }
  }
  rows.push(
    row('`next` branches (`if`/`then`/`else`), `END`', 'supported', 'other keys in a branch: warning'),
  );
  for (const kind of LEGACY_STEP_KINDS)
    rows.push(row(`legacy step kind \`${kind}\``, 'refused', 'Rasa 3.7 only; refused by later Rasa too'));
  return {
    title: 'Flows',
    intro: 'Flow and step keys of the flows YAML format.',
    rows,
  };
}

export function patternsSection(): Section {
  const shipped = shippedPatternIds();
  return {
    title: 'Patterns',
    intro: "Rasa's conversation repair patterns; a project flow with the same id replaces the default.",
    rows: Object.entries(RASA_PATTERNS).map(([id, note]) =>
      row(`\`${id}\``, shipped.has(id) ? 'supported' : 'warned', note),
    ),
  };
}

export function commandsSection(): Section {
  return {
    title: 'Commands',
    intro: 'Commands a command generator (LLM, NLU or payload) may produce.',
    rows: Object.entries(RASA_COMMANDS).map(([name, note]) =>
      row(
        `\`${name}\``,
        name in COMMANDS ? 'supported' : 'refused',
        note || (name in COMMANDS ? '' : 'dropped'),
      ),
    ),
  };
}

function definition(name: string): SchemaObject {
  const definitions = (flowsFileSchema['definitions'] ?? {}) as Record<string, SchemaObject>;
  const found = definitions[name];
  if (!found) throw new Error(`the flows schema has no definition '${name}'`);
  return found;
}

function schemaKeys(schema: SchemaObject): Set<string> {
  return new Set(Object.keys((schema['properties'] ?? {}) as Record<string, unknown>));
}

function stepKeysByKind(): Map<string, Set<string>> {
  const branches = (definition('step')['allOf'] ?? []) as SchemaObject[];
  const byKind = new Map<string, Set<string>>();
  STEP_KINDS.forEach((kind, index) => {
    const then = branches[index]?.['then'] as SchemaObject | undefined;
    byKind.set(kind, then ? schemaKeys(then) : new Set());
  });
  return byKind;
}

function shippedPatternIds(): Set<string> {
  const ids = new Set<string>();
  for (const file of defaultPatternFiles(undefined)) {
    const flows = (file.data as { flows?: Record<string, unknown> } | null)?.flows ?? {};
    for (const id of Object.keys(flows)) ids.add(id);
  }
  return ids;
}
