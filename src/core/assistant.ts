import type { SubAgentConfig } from './agents/sub-agent.js';
import type { DialogueData } from './dialogue/types.js';
import type { NluData } from './domain/nlu-data.js';
import type { Domain } from './domain/types.js';
import type { FlowList } from './flows/flow-list.js';

/** A pipeline or policy entry of config.yml: `name` plus its options. */
export interface ComponentConfig {
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
}

export interface AssistantConfig {
  readonly recipe: string;
  readonly language: string;
  readonly assistantId: string | undefined;
  readonly pipeline: readonly ComponentConfig[];
  readonly policies: readonly ComponentConfig[];
  /** the Rasa version whose default behaviours to reproduce (`parley.rasa_version`); newest when absent */
  readonly rasaVersion: string | undefined;
  /** config.yml as written, for components that read their own keys */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** Everything the engine needs to run an assistant, normalised from its YAML files. */
export interface Assistant {
  readonly config: AssistantConfig;
  readonly domain: Domain;
  readonly flows: FlowList;
  readonly nlu: NluData;
  /** rules and stories, for the NLU-based policies of coexistence */
  readonly dialogue: DialogueData;
  /** endpoints.yml, schema-checked; each subsystem reads its own section */
  readonly endpoints: Readonly<Record<string, unknown>>;
  readonly credentials: Readonly<Record<string, unknown>>;
  /** the external agents of `sub_agents/`, by name (empty when the project has none) */
  readonly subAgents: ReadonlyMap<string, SubAgentConfig>;
}
