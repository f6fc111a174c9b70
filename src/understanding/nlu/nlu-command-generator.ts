import { cleanUpCommandsKeepCannotHandle } from './command-choice.js';
import type { Command } from '../../core/commands/types.js';
import { activeCollectSlot } from '../../core/commands/cleanup.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import type { ParseData } from '../../core/events/types.js';
import type { CommandGenerator, Understanding } from '../../core/ports.js';
import { sanitizedUserText } from '../../core/domain/direct-payload.js';
import type { TraceSink } from '../../core/ports.js';
import { understandPayload } from '../direct-payloads.js';
import { tracedPayload, traceUnderstood } from '../trace-understanding.js';
import { commandsFromNlu } from '../nlu-command-adapter.js';
import type { ExtractedEntity } from './entities/types.js';
import { REPAIR_INTENT_COMMANDS } from './repair-intents.js';
import { entityBacked, keptBesideAnswer, partial, repairIntentsOf, runningFlows } from './beside-answer.js';
import { askedSlotAnswer } from './asked-slot.js';
import { isExplicitRepair } from './repair-markers.js';

export interface IntentPrediction {
  readonly intent: string | null;
  readonly confidence: number;
  readonly ranking: readonly { readonly intent: string; readonly confidence: number }[];
}

/** What the trained pipeline makes of one message. */
export interface NluInterpreter {
  interpret(text: string): {
    readonly prediction: IntentPrediction;
    readonly entities: readonly ExtractedEntity[];
  };
}

export interface NluThresholds {
  /** below this, an intent is not trusted (Rasa's FallbackClassifier threshold) */
  readonly intent: number;
  /** flows without an nlu_trigger are started from their description only above this stricter one */
  readonly flowDescription: number;
}

export const DEFAULT_THRESHOLDS: NluThresholds = { intent: 0.4, flowDescription: 0.6 };

/** The pseudo-intent trained from a flow's name and description, for flows without an nlu_trigger. */
export const FLOW_INTENT_PREFIX = 'parley_flow__';

const MAX_CHARACTERS = 420;

/**
 * Offline understanding: payloads as they are; otherwise the trained intent classifier and entity
 * extractors, combined the way Rasa's NLU coexistence does (nlu_trigger intents start flows, NLU slot
 * mappings fill slots), plus Parley's own rules: the slot being asked is filled from the message by its
 * type, repair intents (cancel, skip, human, repeat, restart, chitchat, out of scope) become their
 * commands, and anything not understood confidently is `cannot handle`.
 */
export class NluCommandGenerator implements CommandGenerator {
  private readonly interpreter: NluInterpreter;
  private readonly thresholds: NluThresholds;

  constructor(options: { interpreter: NluInterpreter; thresholds?: Partial<NluThresholds> }) {
    this.interpreter = options.interpreter;
    this.thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  }

  async understand(input: {
    text: string;
    state: TrackerState;
    engine: EngineContext;
    trace?: TraceSink;
  }): Promise<Understanding> {
    const payload = understandPayload(input.text, input.engine, input.state);
    if (payload) return tracedPayload(input, payload);
    const text = sanitizedUserText(input.text, input.engine.domain.slots);
    if (text.trim() === '') return error(text, 'rasa_internal_error_user_input_empty');
    if (text.length > MAX_CHARACTERS)
      return error(text, 'rasa_internal_error_user_input_too_long', { max_characters: MAX_CHARACTERS });
    const { prediction, entities } = this.interpreter.interpret(text);
    const commands = this.commandsFor(text, prediction, entities, input);
    if (input.trace) {
      const { intent, confidence } = prediction;
      traceUnderstood(
        input,
        { kind: 'nlu', intent, confidence, entities: entities.map(toNluEntity) },
        commands,
      );
    }
    return { commands, parseData: parseData(text, prediction, entities) };
  }

  private commandsFor(
    text: string,
    prediction: IntentPrediction,
    entities: readonly ExtractedEntity[],
    input: { state: TrackerState; engine: EngineContext },
  ): Command[] {
    const confident = prediction.intent !== null && prediction.confidence >= this.thresholds.intent;
    const intent = confident ? prediction.intent : null;
    const repair = intent ? REPAIR_INTENT_COMMANDS[intent] : undefined;
    // the repair the intent stands for: a shipped one, or a project intent triggering a repair pattern
    const repairName =
      intent === null ? undefined : repair ? intent : repairIntentsOf(input.engine).get(intent);
    const askedName = activeCollectSlot(input.state.stack);
    // with a question pending, only a confident flow description competes with the answer
    const flowStart = this.flowFromDescription(prediction, input.engine, askedName !== undefined);
    // Parley's own intents (repair, flow descriptions) are not domain intents: only entities go to the adapter.
    const domainIntent = repair || intent?.startsWith(FLOW_INTENT_PREFIX) ? null : intent;
    const nlu = commandsFromNlu(
      { intent: domainIntent, entities: entities.map(toNluEntity) },
      input.engine,
      input.state,
    ).filter(
      // an intent-mapped value (affirm → true) only answers the slot being asked; entity values may prefill or correct
      (command) =>
        command.command !== 'set slot' ||
        command.name === askedName ||
        entityBacked(command.name, entities, input.engine),
    );
    const answer = this.askedSlotValue(text, entities, prediction, {
      ...input,
      repairName,
      domainIntent,
      nlu,
      flowStart,
    });
    const asked = answer?.command;
    // A repair (cancel, out of scope, ...) stands alone: slot values it mentions are not meant as answers.
    if (repair && !asked) return [repair];
    return cleanUpCommandsKeepCannotHandle([
      ...(flowStart && !asked ? [flowStart] : []),
      ...(asked ? [asked] : []),
      ...nlu.filter((command) => keptBesideAnswer(command, answer, { repairName, entities, text, ...input })),
    ]);
  }

  /** The slot being asked, filled from the message unless the message clearly means something else. */
  private askedSlotValue(
    text: string,
    entities: readonly ExtractedEntity[],
    prediction: IntentPrediction,
    input: {
      state: TrackerState;
      engine: EngineContext;
      repairName: string | undefined;
      domainIntent: string | null;
      nlu: readonly Command[];
      flowStart: Command | undefined;
    },
  ): { command: Extract<Command, { command: 'set slot' }>; source: 'entity' | 'words' } | undefined {
    const name = activeCollectSlot(input.state.stack);
    const slot = name ? input.engine.domain.slots.get(name) : undefined;
    if (!slot) return undefined;
    const running = runningFlows(input.state);
    const strong = prediction.confidence >= this.thresholds.flowDescription;
    const answer = askedSlotAnswer({
      slot,
      text,
      entities,
      buttons: input.state.lastBotTurn.flatMap((event) => event.data.buttons ?? []),
      intent: input.domainIntent,
      engine: input.engine,
      others: {
        explicitRepair: input.repairName !== undefined && isExplicitRepair(input.repairName, text),
        otherFlow:
          strong &&
          [...(input.flowStart ? [input.flowStart] : []), ...input.nlu].some(
            (command) => command.command === 'start flow' && !running.has(command.flow),
          ),
        otherSlots: input.nlu.some(
          (command) =>
            command.command === 'set slot' &&
            command.name !== slot.name &&
            entityBacked(command.name, partial(entities, text), input.engine),
        ),
        confidentNonAnswer: strong && input.repairName !== undefined,
      },
    });
    if (!answer) return undefined;
    // Parley's offline understanding stands in for the LLM on from_llm slots, so Rasa's mapping rules keep the value.
    const extractor = slot.mappings.some((mapping) => mapping.type === 'from_llm') ? 'LLM' : 'NLU';
    return {
      command: { command: 'set slot', name: slot.name, value: answer.value, extractor },
      source: answer.source === 'entity' ? 'entity' : 'words',
    };
  }

  private flowFromDescription(
    prediction: IntentPrediction,
    engine: EngineContext,
    questionPending: boolean,
  ): Command | undefined {
    const intent = prediction.intent;
    const threshold = questionPending ? this.thresholds.flowDescription : this.thresholds.intent;
    if (!intent?.startsWith(FLOW_INTENT_PREFIX) || prediction.confidence < threshold) return undefined;
    const flowId = intent.slice(FLOW_INTENT_PREFIX.length);
    return engine.flows.has(flowId) ? { command: 'start flow', flow: flowId } : undefined;
  }
}

function toNluEntity(entity: ExtractedEntity) {
  return {
    entity: entity.entity,
    value: entity.value,
    ...(entity.role ? { role: entity.role } : {}),
    ...(entity.group ? { group: entity.group } : {}),
  };
}

function parseData(
  text: string,
  prediction: IntentPrediction,
  entities: readonly ExtractedEntity[],
): ParseData {
  return {
    text,
    intent: { name: prediction.intent, confidence: prediction.confidence },
    entities: entities.map((entity) => ({ ...entity })),
    intent_ranking: prediction.ranking.map((entry) => ({ name: entry.intent, confidence: entry.confidence })),
  };
}

function error(text: string, errorType: string, info?: Record<string, unknown>): Understanding {
  return {
    commands: [{ command: 'error', error_type: errorType, ...(info ? { info } : {}) }],
    parseData: { text, intent: { name: null, confidence: 0 }, entities: [] },
  };
}
