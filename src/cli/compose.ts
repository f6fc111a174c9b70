import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { ActionServerClient } from '../actions/action-server/client.js';
import { parseActionEndpoint } from '../actions/action-server/endpoint-config.js';
import { DefaultActionRunner } from '../actions/action-runner.js';
import { ActionServerSource } from '../actions/custom/action-server-source.js';
import { InProcessActionSource } from '../actions/custom/in-process.js';
import { loadActionsFrom } from '../actions/custom/load-actions.js';
import type { CustomActionSource } from '../actions/custom/source.js';
import type { ActionStub } from '../actions/custom/stub-source.js';
import { StubActionSource } from '../actions/custom/stub-source.js';
import type { Assistant } from '../core/assistant.js';
import { hasRoutingSlot } from '../core/coexistence.js';
import { NluPolicies, nluPolicyConfig } from '../core/dialogue/nlu-policies.js';
import type { EngineOptions } from '../core/engine-context.js';
import type { Clock, CommandGenerator, IdSource, LockStore, TrackerStore } from '../core/ports.js';
import { Agent } from '../runtime/agent.js';
import { InstrumentedActionRunner } from '../runtime/instrumented-action-runner.js';
import type { ActionObserver } from '../runtime/instrumented-action-runner.js';
import type { Logger } from '../runtime/logger.js';
import { MemoryLockStore } from '../stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../stores/memory-tracker-store.js';
import { PayloadCommandGenerator } from '../understanding/direct-payloads.js';
import { engineOptionsFor } from './engine-options.js';
import { parseNlgEndpoint } from '../actions/nlg/nlg-endpoint.js';
import { NlgServerResponses } from '../actions/nlg/nlg-server-responses.js';
import type { ResponseSource } from '../actions/responses/response-source.js';
import { AppError } from '../core/errors.js';
import type { RuntimeBuiltInAction } from '../core/built-ins/types.js';
import type { KnowledgeIndex } from '../knowledge/knowledge-index.js';
import type { Environment } from '../understanding/llm/config.js';
import { runtimeBuiltIns } from './runtime-built-ins.js';
import { actionsModuleName, locateActionsModule } from '../project/actions-module.js';
import { unprovidedCustomActions, warnUnprovidedActions } from './unprovided-actions.js';

/** The one place where Parley's parts are wired together. */
export interface ComposeOptions {
  readonly assistant: Assistant;
  readonly projectRoot: string;
  readonly trackerStore?: TrackerStore;
  readonly lockStore?: LockStore;
  readonly commandGenerator?: CommandGenerator;
  /** action stubs, tried before in-process actions and the action server */
  readonly stubs?: ReadonlyMap<string, ActionStub>;
  /** extra custom action sources tried after the stubs (e.g. the corpus stub actions of our tests) */
  readonly extraActionSources?: readonly CustomActionSource[];
  readonly clock?: Clock;
  readonly ids?: IdSource;
  readonly random?: () => number;
  readonly engineOptions?: Partial<EngineOptions>;
  readonly logger?: Logger;
  /** hears of every action run (the server's metrics) */
  readonly actionObserver?: ActionObserver;
  /** the model's knowledge index, searched by action_trigger_search (EnterpriseSearchPolicy) */
  readonly knowledge?: KnowledgeIndex;
  /** the searching built-ins made once by knowledgeBuiltIns() (for callers composing many agents) */
  readonly runtimeBuiltIns?: ReadonlyMap<string, RuntimeBuiltInAction>;
  /** where `${VAR}`s of the knowledge search's LLM settings are read (default: process.env) */
  readonly env?: Environment;
  /** warn on `logger` about declared custom actions no source provides (`parley run`, `parley shell`) */
  readonly warnUnprovidedActions?: boolean;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() / 1000 };

/** Random bytes drawn 4 KB at a time: a frame id per call to randomBytes cost 5 % of a REST turn. */
const randomPool = { bytes: Buffer.alloc(0), offset: 0 };

function randomSlice(length: number): Buffer {
  if (randomPool.offset + length > randomPool.bytes.length) {
    randomPool.bytes = randomBytes(4096);
    randomPool.offset = 0;
  }
  const slice = randomPool.bytes.subarray(randomPool.offset, randomPool.offset + length);
  randomPool.offset += length;
  return slice;
}

export const RANDOM_IDS: IdSource = {
  // 6 bytes are 8 base64url characters
  frameId: () => randomSlice(6).toString('base64url').toUpperCase(),
  messageId: () => randomUUID().replace(/-/g, ''),
};

export async function composeAgent(options: ComposeOptions): Promise<Agent> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const sources: CustomActionSource[] = [];
  if (options.stubs && options.stubs.size > 0)
    sources.push(new StubActionSource({ stubs: options.stubs, clock: () => clock.now() }));
  sources.push(...(options.extraActionSources ?? []));
  // `action_endpoint.actions_module` (a dotted path, default `actions`) names the folder or module
  const actionsModule = locateActionsModule(
    resolve(options.projectRoot),
    actionsModuleName(options.assistant.endpoints),
  );
  const inProcess = actionsModule.kind === 'missing' ? [] : await loadActionsFrom(actionsModule.path);
  if (inProcess.length > 0)
    sources.push(new InProcessActionSource({ actions: inProcess, clock: () => clock.now() }));
  const endpoint = parseActionEndpoint(options.assistant.endpoints['action_endpoint']);
  if (endpoint.ok && endpoint.endpoint?.kind === 'http') {
    const client = new ActionServerClient({
      endpoint: endpoint.endpoint.config,
      domain: options.assistant.domain,
      clock: () => clock.now(),
    });
    sources.push(new ActionServerSource({ client }));
  }
  if (options.warnUnprovidedActions && options.logger)
    warnUnprovidedActions(options.logger, unprovidedCustomActions(options.assistant, sources), actionsModule);
  const responses = responseSourceFor(options.assistant);
  const runner = new DefaultActionRunner({
    assistant: options.assistant,
    customActions: sources,
    random: options.random ?? Math.random,
    ...(responses ? { responses } : {}),
    runtimeBuiltIns:
      options.runtimeBuiltIns ??
      runtimeBuiltIns({
        assistant: options.assistant,
        index: options.knowledge,
        ...(options.logger ? { logger: options.logger } : {}),
        ...(options.env ? { env: options.env } : {}),
      }),
  });
  const observer = options.actionObserver;
  return new Agent({
    assistant: options.assistant,
    trackerStore: options.trackerStore ?? new MemoryTrackerStore(),
    lockStore: options.lockStore ?? new MemoryLockStore(),
    actionRunner: observer
      ? new InstrumentedActionRunner({ inner: runner, observer, assistant: options.assistant })
      : runner,
    commandGenerator: options.commandGenerator ?? new PayloadCommandGenerator(),
    clock,
    ids: options.ids ?? RANDOM_IDS,
    engineOptions: { ...engineOptionsFor(options.assistant), ...options.engineOptions },
    ...(options.logger ? { logger: options.logger } : {}),
    ...(hasRoutingSlot(options.assistant.domain) ? { nluPolicies: nluPoliciesFor(options.assistant) } : {}),
  });
}

/** Coexistence (the domain has Rasa's routing slot): the rules and stories policies of the NLU side. */
function nluPoliciesFor(assistant: Assistant): NluPolicies {
  const config = nluPolicyConfig(assistant.config.policies);
  return new NluPolicies({ data: assistant.dialogue, domain: assistant.domain, config });
}

/** An NLG server when endpoints.yml names one; undefined: the domain's templates. */
function responseSourceFor(assistant: Assistant): ResponseSource | undefined {
  const nlg = parseNlgEndpoint(assistant.endpoints['nlg']);
  switch (nlg.kind) {
    case 'none':
      return undefined;
    case 'unsupported':
      // the rephraser or a custom NLG class: said once, by validate and at start-up (NLG_REPHRASER_NOT_RUN)
      return undefined;
    case 'invalid':
      throw new AppError({
        code: 'PROJECT_INVALID',
        message: `endpoints.yml: ${nlg.problems.join('; ')}.`,
      });
    case 'server':
      return new NlgServerResponses({ endpoint: nlg.endpoint });
  }
}
