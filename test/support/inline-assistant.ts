/**
 * Small assistants written inline in a test, and a driver that talks to them through the real Agent
 * (composeAgent with memory stores, deterministic ids, a manual clock and no custom-action folder).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActionStub } from '../../src/actions/custom/stub-source.js';
import type { CustomActionSource } from '../../src/actions/custom/source.js';
import { composeAgent } from '../../src/cli/compose.js';
import type { Assistant } from '../../src/core/assistant.js';
import type { Command } from '../../src/core/commands/types.js';
import type { EngineOptions } from '../../src/core/engine-context.js';
import type { TrackerState } from '../../src/core/events/tracker-state.js';
import type { Event, UnstampedEvent } from '../../src/core/events/types.js';
import type { Clock, TrackerStore } from '../../src/core/ports.js';
import type { Agent, TurnResult } from '../../src/runtime/agent.js';
import type { Logger } from '../../src/runtime/logger.js';
import type { KnowledgeIndex } from '../../src/knowledge/knowledge-index.js';
import { loadProject } from '../../src/project/load-project.js';
import { VALIDATION_RULES } from '../../src/project/validate/index.js';
import { RuleContext } from '../../src/project/validate/rule.js';

export interface InlineProject {
  readonly domain: string;
  readonly flows: string;
  readonly config?: string;
  readonly endpoints?: string;
  /** more files by path under the project root, e.g. `{'data/nlu.yml': ..., 'data/stories.yml': ...}` */
  readonly files?: Readonly<Record<string, string>>;
}

export interface InlineOptions {
  /**
   * run the validation rules of `parley data validate` too (default true); turn off to build an
   * assistant that is broken on purpose, e.g. a collect step without a question
   */
  readonly validate?: boolean;
}

const DEFAULT_CONFIG = 'recipe: default.v1\nlanguage: en\nassistant_id: inline-test\n';

/** Strips the common indentation of a YAML block written inside a template literal. */
export function dedent(text: string): string {
  const lines = text.replace(/^\n/, '').split('\n');
  const indents = lines.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length);
  const indent = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(indent)).join('\n');
}

/** Writes the YAML into a fresh folder, loads and validates it; any error fails the test at once. */
export function inlineAssistant(project: InlineProject, options: InlineOptions = {}): Assistant {
  const root = mkdtempSync(join(tmpdir(), 'parley-inline-'));
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'domain.yml'), dedent(project.domain));
  writeFileSync(join(root, 'data', 'flows.yml'), dedent(project.flows));
  writeFileSync(join(root, 'config.yml'), project.config ? dedent(project.config) : DEFAULT_CONFIG);
  if (project.endpoints) writeFileSync(join(root, 'endpoints.yml'), dedent(project.endpoints));
  for (const [path, text] of Object.entries(project.files ?? {}))
    writeFileSync(join(root, path), dedent(text));
  const { project: loaded, diagnostics } = loadProject({ project: root });
  if (options.validate !== false) {
    const context = new RuleContext({ project: loaded, diagnostics });
    for (const rule of VALIDATION_RULES) rule.check(context);
  }
  if (diagnostics.hasErrors) {
    const errors = diagnostics.all.filter((item) => item.severity === 'error');
    throw new Error(`inline assistant does not load:\n${JSON.stringify(errors, null, 2)}`);
  }
  return loaded.assistant;
}

/** A clock the test moves by hand (seconds since the epoch). */
export class ManualClock implements Clock {
  constructor(private seconds = 1_700_000_000) {}

  now(): number {
    return this.seconds;
  }

  advanceMinutes(minutes: number): void {
    this.seconds += minutes * 60;
  }
}

let emptyRoot: string | undefined;

/** A project root without an `actions/` folder, so no in-process actions are loaded. */
function rootWithoutActions(): string {
  emptyRoot ??= mkdtempSync(join(tmpdir(), 'parley-no-actions-'));
  return emptyRoot;
}

export interface ConversationOptions {
  readonly stubs?: Readonly<Record<string, Partial<ActionStub>>>;
  readonly actionSources?: readonly CustomActionSource[];
  readonly clock?: Clock;
  readonly engineOptions?: Partial<EngineOptions>;
  readonly trackerStore?: TrackerStore;
  readonly conversationId?: string;
  /** the knowledge index action_trigger_search searches (EnterpriseSearchPolicy) */
  readonly knowledge?: KnowledgeIndex;
  /** where `${VAR}`s of LLM settings are read */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly logger?: Logger;
}

export interface FrameSummary {
  readonly flow_id: string;
  readonly step_id: string;
  readonly type: string;
  readonly frame_type?: string;
}

export interface Conversation {
  readonly agent: Agent;
  readonly conversationId: string;
  /** one user turn; with `commands`, understanding is skipped and these are applied as given */
  send(text: string, commands?: readonly Command[]): Promise<readonly Event[]>;
  /** like send, returning the whole turn result */
  turn(text: string, commands?: readonly Command[]): Promise<TurnResult>;
  /** appends events from outside (as the HTTP API or e2e fixtures do) */
  append(events: readonly UnstampedEvent[]): Promise<readonly Event[]>;
  events(): Promise<readonly Event[]>;
  state(): Promise<TrackerState>;
  slots(): Promise<Readonly<Record<string, unknown>>>;
  stack(): Promise<FrameSummary[]>;
}

/** Composes an agent for the assistant and returns a driver for one conversation. */
export async function startConversation(
  assistant: Assistant,
  options: ConversationOptions = {},
): Promise<Conversation> {
  let frames = 0;
  let messages = 0;
  const stubs = new Map<string, ActionStub>(
    Object.entries(options.stubs ?? {}).map(([name, stub]) => [
      name,
      { events: stub.events ?? [], responses: stub.responses ?? [] },
    ]),
  );
  const agent = await composeAgent({
    assistant,
    projectRoot: rootWithoutActions(),
    stubs,
    ...(options.actionSources ? { extraActionSources: options.actionSources } : {}),
    ...(options.trackerStore ? { trackerStore: options.trackerStore } : {}),
    ids: { frameId: () => `F${(frames += 1)}`, messageId: () => `M${(messages += 1)}` },
    clock: options.clock ?? new ManualClock(),
    random: () => 0,
    ...(options.engineOptions ? { engineOptions: options.engineOptions } : {}),
    ...(options.knowledge ? { knowledge: options.knowledge } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const conversationId = options.conversationId ?? 'test-user';
  const turn = (text: string, commands?: readonly Command[]): Promise<TurnResult> =>
    agent.handleMessage({ conversationId, text, ...(commands ? { commands } : {}) });
  const state = async (): Promise<TrackerState> => (await agent.load(conversationId)).state;
  return {
    agent,
    conversationId,
    turn,
    send: async (text, commands) => (await turn(text, commands)).events,
    append: async (events) => (await agent.appendEvents(conversationId, events)).events,
    events: async () => (await agent.load(conversationId)).events,
    state,
    slots: async () => (await state()).slots,
    stack: async () => summariseStack(await state()),
  };
}

function summariseStack(state: TrackerState): FrameSummary[] {
  return state.stack.map((frame) => ({
    flow_id: frame.flow_id,
    step_id: frame.step_id,
    type: frame.type,
    ...(frame.type === 'flow' ? { frame_type: frame.frame_type } : {}),
  }));
}

// --- picking things out of a turn's events --------------------------------------------------------

/** `metadata.utter_action` of each bot message, in order. */
export function utterances(events: readonly Event[]): string[] {
  return events.flatMap((event) =>
    event.event === 'bot' ? [String(event.metadata?.['utter_action'] ?? '<no utter_action>')] : [],
  );
}

/** Names of the actions run, in order (action_listen included). */
export function actionNames(events: readonly Event[]): string[] {
  return events.flatMap((event) => (event.event === 'action' ? [event.name] : []));
}

/** Ids of the flows started (`flow_started`), in order. */
export function flowsStarted(events: readonly Event[]): string[] {
  return events.flatMap((event) => (event.event === 'flow_started' ? [event.flow_id] : []));
}

/** `slot` events as name/value pairs, in order. */
export function slotEvents(events: readonly Event[]): { name: string; value: unknown }[] {
  return events.flatMap((event) =>
    event.event === 'slot' ? [{ name: event.name, value: event.value }] : [],
  );
}

/** Values given to one slot during the events, in order. */
export function slotValues(events: readonly Event[], name: string): unknown[] {
  return slotEvents(events)
    .filter((event) => event.name === name)
    .map((event) => event.value);
}

/** `flow_*` lifecycle events as `"<event> <flow_id>"`, in order. */
export function flowEvents(events: readonly Event[]): string[] {
  return events.flatMap((event) =>
    event.event.startsWith('flow_') && 'flow_id' in event ? [`${event.event} ${event.flow_id}`] : [],
  );
}

/** The event names, in order. */
export function eventNames(events: readonly Event[]): string[] {
  return events.map((event) => event.event);
}

/** The stack as `"<flow_id>@<step_id>"`, bottom first. */
export function stackFlows(stack: readonly FrameSummary[]): string[] {
  return stack.map((frame) => `${frame.flow_id}@${frame.step_id}`);
}
