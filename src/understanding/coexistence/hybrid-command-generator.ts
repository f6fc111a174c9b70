/**
 * A pipeline with NLU and an LLM command generator, run as Rasa runs it (coexistence of
 * NLUCommandAdapter and an LLM-based generator, optionally behind a router):
 *
 * 1. Direct payloads first: `/SetSlots(...)` is applied as it is; `/intent{...}` is an intent with
 *    confidence 1 and takes the same way as a classified message.
 * 2. The router (IntentBasedRouter / LLMBasedRouter), if any, decides whether the message goes to the
 *    NLU-based system; then no command generator runs, and the dialogue policies answer.
 * 3. The NLU command adapter: an nlu_trigger intent starts its flow, NLU slot mappings fill slots.
 * 4. The LLM generator, unless `minimize_num_calls` (default true) and the adapter already started a flow
 *    or filled the slot being collected; its commands are merged after the adapter's (prior-commands.ts).
 * 5. Rasa's generator-side filters on the result: StartFlow only for startable flows, force slot filling.
 */
import { hasRoutingSlot, messageGoesToNlu, routeTo } from '../../core/coexistence.js';
import type { Command } from '../../core/commands/types.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { ParseData } from '../../core/events/types.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import type { CommandGenerator, TraceSink, Understanding } from '../../core/ports.js';
import { sanitizedUserText } from '../../core/domain/direct-payload.js';
import { understandPayload } from '../direct-payloads.js';
import { tracedPayload, traceUnderstood } from '../trace-understanding.js';
import { startableFlows } from '../llm/flow-retrieval.js';
import { forceSlotFilling, onlyStartable } from '../llm/llm-command-generator.js';
import type { NluInterpreter } from '../nlu/nlu-command-generator.js';
import { nluAdapterCommands } from './nlu-adapter.js';
import type { ClassifiedMessage } from './nlu-adapter.js';
import { llmCallIsSkipped, mergeWithPrior } from './prior-commands.js';
import type { CoexistenceRouter, RouteDecision } from './router.js';
import { TO_CALM } from './router.js';

export interface HybridOptions {
  readonly interpreter: NluInterpreter;
  /** the LLM command generator; absent for a pipeline of NLU command adapter and router only */
  readonly llm?: CommandGenerator;
  readonly router?: CoexistenceRouter;
  /** whether NLUCommandAdapter is in the pipeline */
  readonly nluAdapter: boolean;
  /** the LLM generator's `minimize_num_calls` (Rasa's default: true) */
  readonly minimizeNumCalls: boolean;
}

interface Input {
  readonly text: string;
  readonly state: TrackerState;
  readonly engine: EngineContext;
  readonly trace?: TraceSink;
}

interface Classified {
  readonly message: ClassifiedMessage;
  readonly parseData: ParseData;
}

export class HybridCommandGenerator implements CommandGenerator {
  private readonly options: HybridOptions;

  constructor(options: HybridOptions) {
    this.options = options;
  }

  async understand(given: Input): Promise<Understanding> {
    const payload = understandPayload(given.text, given.engine, given.state);
    if (payload && payload.parseData.intent.name === null) return tracedPayload(given, payload);
    const input = { ...given, text: sanitizedUserText(given.text, given.engine.domain.slots) };
    const classified = payload ? fromPayload(payload.parseData) : this.classify(input);
    const route = this.options.router
      ? await this.options.router.route({ ...input, message: classified.message })
      : TO_CALM;
    const toNlu = messageGoesToNlu(input.engine.domain, input.state.slots, route);
    if (input.trace) {
      const { name, confidence } = classified.parseData.intent;
      const source = { kind: 'router', route: toNlu ? 'nlu' : 'calm', intent: name, confidence } as const;
      traceUnderstood(input, source, route.commands);
    }
    if (toNlu) return { commands: route.commands, parseData: classified.parseData };
    const commands = await this.calmCommands(input, classified, route);
    const startable = new Set(startableFlows(input.engine, input.state.slots).map((flow) => flow.id));
    return {
      commands: forceSlotFilling(onlyStartable(commands.commands, startable), input),
      parseData: { ...classified.parseData, ...commands.parseData },
    };
  }

  private async calmCommands(
    input: Input,
    classified: Classified,
    route: RouteDecision,
  ): Promise<{ commands: Command[]; parseData?: Partial<ParseData> }> {
    const adapter = this.options.nluAdapter
      ? nluAdapterCommands(classified.message, input.engine, input.state)
      : [];
    const prior = [...route.commands, ...adapter];
    const llm = this.options.llm;
    if (!llm) return { commands: prior.length > 0 ? prior : [{ command: 'cannot handle' }] };
    if (llmCallIsSkipped(prior, input.state, input.engine, this.options.minimizeNumCalls))
      return { commands: prior };
    const answer = await llm.understand(input);
    const own = prior.length > 0 && isBareCannotHandle(answer.commands) ? [] : [...answer.commands];
    const routed = hasRoutingSlot(input.engine.domain) ? [...own, routeTo(true)] : own;
    const flowsInPrompt = answer.parseData.flows_in_prompt;
    return {
      commands: mergeWithPrior(prior, routed),
      ...(flowsInPrompt ? { parseData: { flows_in_prompt: flowsInPrompt } } : {}),
    };
  }

  private classify(input: Input): Classified {
    const { prediction, entities } = this.options.interpreter.interpret(input.text);
    const known = prediction.intent !== null && input.engine.domain.intents.has(prediction.intent);
    const message: ClassifiedMessage = {
      intent: known ? prediction.intent : null,
      confidence: prediction.confidence,
      entities: entities.map(({ entity, value, role, group }) => ({
        entity,
        value,
        ...(role ? { role } : {}),
        ...(group ? { group } : {}),
      })),
    };
    const parseData: ParseData = {
      text: input.text,
      intent: { name: prediction.intent, confidence: prediction.confidence },
      entities: entities.map((entity) => ({ ...entity })),
      intent_ranking: prediction.ranking.map((entry) => ({
        name: entry.intent,
        confidence: entry.confidence,
      })),
    };
    return { message, parseData };
  }
}

/** Rasa's LLM generators add CannotHandle only when they parsed nothing and nothing came before them. */
function isBareCannotHandle(commands: readonly Command[]): boolean {
  return commands.length === 1 && commands[0]?.command === 'cannot handle' && !('reason' in commands[0]);
}

function fromPayload(parseData: ParseData): Classified {
  const message: ClassifiedMessage = {
    intent: parseData.intent.name,
    confidence: parseData.intent.confidence,
    entities: parseData.entities.map((entity) => ({ entity: entity.entity, value: entity.value })),
  };
  return { message, parseData };
}
