import { cleanUpCommandsKeepCannotHandle } from './command-choice.js';
import type { Command } from '../../core/commands/types.js';
import { activeCollectSlot } from '../../core/commands/cleanup.js';
import { isUserFrame } from '../../core/stack/frames.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import type { ParseData } from '../../core/events/types.js';
import type { CommandGenerator, Understanding } from '../../core/ports.js';
import { understandPayload } from '../direct-payloads.js';
import { commandsFromNlu } from '../nlu-command-adapter.js';
import type { ExtractedEntity } from './entities/types.js';
import { REPAIR_INTENT_COMMANDS, projectRepairIntents } from './repair-intents.js';
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
  }): Promise<Understanding> {
    const payload = understandPayload(input.text, input.engine, input.state);
    if (payload) return payload;
    const text = input.text.replace(/^\/+/, '').trim();
    if (text === '') return error(input.text, 'rasa_internal_error_user_input_empty');
    if (text.length > MAX_CHARACTERS)
      return error(input.text, 'rasa_internal_error_user_input_too_long', { max_characters: MAX_CHARACTERS });
    const { prediction, entities } = this.interpreter.interpret(text);
    const commands = this.commandsFor(text, prediction, entities, input);
    return { commands, parseData: parseData(input.text, prediction, entities) };
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
    const repairName = repair
      ? intent
      : intent
        ? projectRepairIntents(input.engine.flows.flows).get(intent)
        : undefined;
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
    // An answer read from the words of the message is not also a request for another flow.
    const running = runningFlows(input.state);
    const starts = (command: Command): boolean =>
      command.command === 'start flow' && (answer?.source !== 'words' || running.has(command.flow));
    return cleanUpCommandsKeepCannotHandle([
      ...(flowStart && !asked ? [flowStart] : []),
      ...(asked ? [asked] : []),
      ...nlu.filter(
        (command) =>
          (command.command !== 'start flow' || starts(command)) &&
          !(asked && command.command === 'set slot' && command.name === asked.name) &&
          // the project's own repair intent gives way to the answer as a shipped one does
          !(
            asked &&
            repairName !== undefined &&
            command.command !== 'set slot' &&
            command.command !== 'start flow'
          ) &&
          // the whole message read as another slot's entity ("1500" as an amount) is the answer, not a correction
          !(
            answer?.source === 'words' &&
            command.command === 'set slot' &&
            !entityBacked(command.name, partial(entities, text), input.engine)
          ),
      ),
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
      repairName: string | null | undefined;
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
        explicitRepair: typeof input.repairName === 'string' && isExplicitRepair(input.repairName, text),
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
        confidentNonAnswer: strong && typeof input.repairName === 'string',
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

/** Whether an extracted entity fills the slot through one of its from_entity mappings. */
function entityBacked(
  slotName: string,
  entities: readonly ExtractedEntity[],
  engine: EngineContext,
): boolean {
  const slot = engine.domain.slots.get(slotName);
  return (
    slot?.mappings.some(
      (mapping) =>
        mapping.type === 'from_entity' && entities.some((entity) => entity.entity === mapping.entity),
    ) ?? false
  );
}

/** The entities that cover only part of the message (the rest of the message says something else). */
function partial(entities: readonly ExtractedEntity[], text: string): ExtractedEntity[] {
  return entities.filter((entity) => text.slice(entity.start, entity.end).trim() !== text.trim());
}

/** The flows on the stack (user flows and the flows they called). */
function runningFlows(state: TrackerState): Set<string> {
  return new Set(state.stack.filter(isUserFrame).map((frame) => frame.flow_id));
}
