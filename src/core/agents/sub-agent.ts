/**
 * External sub-agents as Rasa reads them (`sub_agents/<folder>/config.yml`): a flow's `call: <agent>`
 * hands the conversation to the agent over A2A until its task ends. Secrets stay as written (`${VAR}`)
 * and are read from the environment by the runtime that calls the agent.
 */
export interface SubAgentConfig {
  /** `agent.name`: what `call:` names */
  readonly name: string;
  readonly description: string;
  readonly protocol: 'a2a';
  /** `configuration.agent_card`: an http(s) URL, or a file path (relative to the project folder) */
  readonly agentCard: AgentCardSource;
  readonly auth: SubAgentAuth;
  /** `configuration.timeout`: seconds for each request to the agent (Rasa: 30) */
  readonly timeoutSeconds: number;
  /** `configuration.max_retries`: attempts to fetch a card by URL (Rasa: 5) */
  readonly maxRetries: number;
  /**
   * Parley's `configuration.result_slots`: slots of this assistant set from the agent's structured
   * results when its task completes (Rasa sets none unless a custom module does)
   */
  readonly resultSlots: readonly string[];
  /** where the config came from, for diagnostics */
  readonly file: string;
}

export type AgentCardSource =
  { readonly kind: 'url'; readonly url: string } | { readonly kind: 'file'; readonly path: string };

export type SubAgentAuth =
  | { readonly kind: 'none' }
  | { readonly kind: 'api_key'; readonly key: string; readonly header: string; readonly format: string }
  | { readonly kind: 'token'; readonly token: string };

export const DEFAULT_AGENT_TIMEOUT_SECONDS = 30;
export const DEFAULT_AGENT_MAX_RETRIES = 5;

/**
 * The action an agent frame on top of the stack predicts while the agent has not answered the latest
 * user message: the runtime relays the message to the agent (the core does no I/O).
 */
export const AGENT_CALL_ACTION = 'action_call_agent';
