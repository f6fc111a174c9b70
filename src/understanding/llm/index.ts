export { LLM_GENERATORS, DEFAULT_LLM_MODEL, DEFAULT_MAX_CHARACTERS, resolveLlmConfig } from './config.js';
export type {
  Environment,
  LlmClientConfig,
  LlmConfigResult,
  LlmGeneratorConfig,
  LlmGeneratorName,
} from './config.js';
export { DSL_LIMITS, parseDsl, parseDslCommands } from './dsl.js';
export type { DslSyntax, DslVocabulary } from './dsl.js';
export { LlmError } from './errors.js';
export type { LlmErrorCode, LlmErrorOptions } from './errors.js';
export {
  DEFAULT_FLOW_RETRIEVAL,
  activeFlowIds,
  rankFlows,
  selectFlows,
  startableFlows,
  tokenize,
} from './flow-retrieval.js';
export type { FlowRetrievalOptions, FlowSelection } from './flow-retrieval.js';
export {
  ERROR_DEFAULT,
  ERROR_USER_INPUT_EMPTY,
  ERROR_USER_INPUT_TOO_LONG,
  LlmCommandGenerator,
  createLlmCommandGenerator,
} from './llm-command-generator.js';
export type { LlmCommandGeneratorOptions, LlmLogger, LlmUnderstandInput } from './llm-command-generator.js';
export {
  DEFAULT_LLM_MAX_RETRIES,
  DEFAULT_LLM_TIMEOUT_SECONDS,
  OpenAiClient,
  messageContent,
} from './openai-client.js';
export type { ChatCompletionClient, ChatMessage, ChatResult, OpenAiClientOptions } from './openai-client.js';
export { DEFAULT_MAX_TURNS, buildPrompt, renderPrompt } from './prompt.js';
export type { BuiltPrompt, PromptFacts, PromptInput, PromptOptions } from './prompt.js';
export { currentState, displayValue, promptFlows, requestedSlot, turnsFromState } from './prompt-inputs.js';
export type {
  ConversationTurn,
  PromptCurrentState,
  PromptFlow,
  PromptSlot,
  PromptSlotState,
} from './prompt-inputs.js';
