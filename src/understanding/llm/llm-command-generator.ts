/**
 * Rasa's single-step LLM command generators (Compact, SearchReady, SingleStep): one prompt per user
 * message, one LLM call, the answer parsed into commands. Direct payloads (`/SetSlots(...)`, `/intent`)
 * are understood without the LLM. The engine's cleanup runs afterwards; here only the generator-side
 * filters of Rasa apply: input length checks, StartFlow only for startable flows, and force slot filling.
 */
import type { Command } from '../../core/commands/types.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { ParseData } from '../../core/events/types.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import type { CommandGenerator, TraceSink, Understanding } from '../../core/ports.js';
import { isPatternId } from '../../core/flows/types.js';
import { findPattern, topUserFrame } from '../../core/stack/operations.js';
import { sanitizedUserText } from '../../core/domain/direct-payload.js';
import { understandPayload } from '../direct-payloads.js';
import { tracedPayload, traceUnderstood } from '../trace-understanding.js';
import type { LlmGeneratorConfig } from './config.js';
import { DEFAULT_MAX_CHARACTERS } from './config.js';
import { parseDslCommands } from './dsl.js';
import { activeFlowIds, startableFlows } from './flow-retrieval.js';
import { OpenAiClient } from './openai-client.js';
import type { ChatCompletionClient } from './openai-client.js';
import { buildPrompt } from './prompt.js';
import type { PromptOptions } from './prompt.js';
import type { ConversationTurn } from './prompt-inputs.js';

/** pino's call shape, so the runtime's logger fits. */
export interface LlmLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

const SILENT: LlmLogger = { warn: () => undefined, error: () => undefined };

export interface LlmCommandGeneratorOptions {
  readonly client: ChatCompletionClient;
  readonly prompt?: PromptOptions;
  /** Rasa's `user_input.max_characters` (default 420); a negative number disables the check */
  readonly maxCharacters?: number;
  readonly logger?: LlmLogger;
  /** the component name in log lines */
  readonly name?: string;
}

/**
 * The port's input, plus an optional longer history: the tracker state only remembers the last two
 * bot turns and the latest user message, so a caller holding the event log may pass the conversation
 * before the new message here (oldest first).
 */
export interface LlmUnderstandInput {
  readonly text: string;
  readonly state: TrackerState;
  readonly engine: EngineContext;
  readonly recentTurns?: readonly ConversationTurn[];
  readonly trace?: TraceSink;
}

export const ERROR_DEFAULT = 'rasa_internal_error_default';
export const ERROR_USER_INPUT_EMPTY = 'rasa_internal_error_user_input_empty';
export const ERROR_USER_INPUT_TOO_LONG = 'rasa_internal_error_user_input_too_long';

export class LlmCommandGenerator implements CommandGenerator {
  private readonly options: LlmCommandGeneratorOptions;
  private readonly logger: LlmLogger;
  private readonly name: string;

  constructor(options: LlmCommandGeneratorOptions) {
    this.options = options;
    this.logger = options.logger ?? SILENT;
    this.name = options.name ?? 'LlmCommandGenerator';
  }

  async understand(input: LlmUnderstandInput): Promise<Understanding> {
    const payload = understandPayload(input.text, input.engine, input.state);
    if (payload) return tracedPayload(input, payload);
    const message = { ...input, text: sanitizedUserText(input.text, input.engine.domain.slots) };
    const startable = new Set(startableFlows(input.engine, input.state.slots).map((flow) => flow.id));
    const { commands, flowsInPrompt } = await this.commands(message, startable);
    const filtered = forceSlotFilling(onlyStartable(commands, startable), input);
    return { commands: filtered, parseData: parseData(message.text, flowsInPrompt) };
  }

  private async commands(
    input: LlmUnderstandInput,
    startable: ReadonlySet<string>,
  ): Promise<{ commands: Command[]; flowsInPrompt?: string[] }> {
    const inputError = this.checkInput(input.text);
    if (inputError) return { commands: [inputError] };
    const { prompt, flowIds } = buildPrompt(input, this.options.prompt);
    const answer = await this.options.client.complete([{ role: 'user', content: prompt }]);
    if (!answer.ok) {
      const { code, message, status, attempts } = answer.error;
      this.logger.error(
        { component: this.name, code, status, attempts, error: message },
        'llm_command_generator.llm_error',
      );
      const failed: Command[] = [{ command: 'error', error_type: ERROR_DEFAULT }];
      traceUnderstood(input, { kind: 'llm_error', error: `${code}: ${message}` }, failed);
      return { commands: failed, flowsInPrompt: [...flowIds] };
    }
    const commands = parseDslCommands(answer.text, vocabulary(input, startable));
    traceUnderstood(input, { kind: 'llm', output: answer.text }, commands);
    if (commands.length > 0) return { commands, flowsInPrompt: [...flowIds] };
    this.logger.warn(
      { component: this.name, answer: answer.text.slice(0, 500) },
      'llm_command_generator.no_commands_parsed',
    );
    return { commands: [{ command: 'cannot handle' }], flowsInPrompt: [...flowIds] };
  }

  /** Rasa's checks before any LLM call: an empty message, or one longer than allowed. */
  private checkInput(text: string): Command | undefined {
    if (text.trim().length === 0) return { command: 'error', error_type: ERROR_USER_INPUT_EMPTY };
    const max = this.options.maxCharacters ?? DEFAULT_MAX_CHARACTERS;
    if (max >= 0 && text.length > max)
      return { command: 'error', error_type: ERROR_USER_INPUT_TOO_LONG, info: { max_characters: max } };
    return undefined;
  }
}

/** A generator for a resolved config, talking to its model over HTTP. */
export function createLlmCommandGenerator(
  config: LlmGeneratorConfig,
  options: { readonly logger?: LlmLogger; readonly fetch?: typeof fetch } = {},
): LlmCommandGenerator {
  const client = new OpenAiClient({ ...config.client, ...(options.fetch ? { fetch: options.fetch } : {}) });
  for (const warning of config.warnings) options.logger?.warn({ component: config.component }, warning);
  return new LlmCommandGenerator({
    client,
    prompt: { syntax: config.syntax, flowRetrieval: config.flowRetrieval },
    maxCharacters: config.maxCharacters,
    name: config.component,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/** What the answer may name: the startable and active user flows, and the domain's slots. */
function vocabulary(
  input: LlmUnderstandInput,
  startable: ReadonlySet<string>,
): { flowIds: Set<string>; slotNames: ReadonlyMap<string, unknown> } {
  const flowIds = new Set(startable);
  for (const id of activeFlowIds(input.state.stack)) if (!isPatternId(id)) flowIds.add(id);
  return { flowIds, slotNames: input.engine.domain.slots };
}

/** Rasa drops StartFlow for flows whose guard does not hold now, whatever the LLM said. */
export function onlyStartable(commands: readonly Command[], startable: ReadonlySet<string>): Command[] {
  return commands.filter((command) => command.command !== 'start flow' || startable.has(command.flow));
}

/**
 * At a collect step with `force_slot_filling`, only a SetSlot for that slot counts; anything else is
 * `cannot handle` (Rasa applies this to every command, errors included).
 */
export function forceSlotFilling(
  commands: Command[],
  input: Pick<LlmUnderstandInput, 'state' | 'engine'>,
): Command[] {
  const frame = topUserFrame(input.state.stack, { includeCallFrames: true });
  const step = frame ? input.engine.flows.step(frame.flow_id, frame.step_id) : undefined;
  if (step?.kind !== 'collect' || !step.forceSlotFilling) return commands;
  if (findPattern(input.state.stack, 'pattern_collect_information')?.['collect'] !== step.collect)
    return commands;
  const kept = commands.filter((command) => command.command === 'set slot' && command.name === step.collect);
  return kept.length > 0 ? kept : [{ command: 'cannot handle' }];
}

function parseData(text: string, flowsInPrompt: string[] | undefined): ParseData {
  return {
    text,
    intent: { name: null, confidence: 0 },
    entities: [],
    ...(flowsInPrompt ? { flows_in_prompt: flowsInPrompt } : {}),
  };
}
