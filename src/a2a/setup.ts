/**
 * The A2A server of `parley run`, prepared from endpoints.yml's `a2a_server` block: reads and checks
 * the settings and the start-up guardrails (failing fast, before any model is trained), settles the
 * card content, and gives the routers to mount on the one port. The AgentCard is built once the server
 * listens, because an inferred URL needs the port actually bound.
 */
import type { Router } from 'express';
import { AppError } from '../core/errors.js';
import type { Assistant } from '../core/assistant.js';
import type { CommandGenerator } from '../core/ports.js';
import type { Agent } from '../runtime/agent.js';
import type { Logger } from '../runtime/logger.js';
import { chooseCardContent, servedCards } from './card/agent-cards.js';
import type { ChosenCard } from './card/agent-cards.js';
import { cardRouter, publishCards } from './card-router.js';
import type { PublishedCards } from './card-router.js';
import { a2aMountPaths, loadA2aServerConfig } from './config.js';
import type { A2aServerConfig } from './config.js';
import { bearerAuth } from './auth/bearer-auth.js';
import { JwtVerifier } from './auth/jwt-verifier.js';
import { assertGuardrails } from './guardrails.js';
import { PushSender } from './push/push-sender.js';
import { PushService } from './push/push-service.js';
import { UrlGuard } from './push/url-guard.js';
import { withGracefulShutdown } from './jsonrpc/open-streams.js';
import { DEFAULT_RPC_BODY_LIMIT, directRpc, rpcRouter } from './jsonrpc/rpc-router.js';
import type { DirectRpc } from './jsonrpc/rpc-router.js';
import { resolvePublicUrl } from './public-url.js';
import { SemanticHandler } from './semantic-handler.js';
import type { TurnAdmission } from './turn-admission.js';
import type { TaskSignals } from './tasks/task-signals.js';
import type { TaskStore, TaskStoreStats } from './tasks/task-store.js';
import type { ListenAddress } from './public-url.js';

export interface A2aSetupOptions {
  readonly assistant: Assistant;
  readonly projectRoot: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  /** the card's version when `a2a_server.version` is not set */
  readonly fallbackVersion: string;
  readonly now?: () => Date;
}

export interface A2aServer {
  readonly config: A2aServerConfig;
  /**
   * Where the JSON-RPC endpoint mounts (`POST /` of a router at each path): the root, and the path
   * of a configured `url` too. The card router is mounted at the same paths.
   */
  readonly mountPaths: readonly string[];
  readonly routers: readonly { readonly path: string; readonly router: Router }[];
  /** builds the AgentCard for the address the server listens on; call once, after listen */
  listening(address: ListenAddress): void;
  /**
   * The JSON-RPC endpoint for the agent, at each mount path. It reads its own request bodies, so the
   * app mounts it before its JSON parser; `direct` serves a plain request whose body the server read
   * (absent with bearer auth).
   */
  jsonRpc(deps: A2aRuntime): readonly A2aRpcMount[];
  /** what the A2A task store holds (zeros before jsonRpc) */
  stats(): Promise<TaskStoreStats>;
  /** the JSON-RPC endpoint's public URL, once listening */
  endpointUrl(): string | undefined;
  /** one line for the start-up message */
  summary(): string;
}

export interface A2aRpcMount {
  readonly path: string;
  readonly router: Router;
  readonly direct?: DirectRpc;
  /** the largest body `direct` takes, in bytes */
  readonly bodyLimit: number;
}

export interface A2aRuntime {
  readonly agent: Agent;
  /** where tasks, contexts, replay entries and push configs live (cli/ chooses it with the tracker store) */
  readonly taskStore: TaskStore;
  /** what the processes sharing the task store tell each other; undefined: one process */
  readonly signals?: TaskSignals | undefined;
  /** the assistant's understanding (slots pre-filled by a data part are added to its commands) */
  readonly commandGenerator: CommandGenerator;
  readonly logger: Logger;
  /** the logger of an HTTP request (its lines carry the request's id); `logger` without one */
  readonly requestLogger?: (request: object) => Logger;
  /** SSE keep-alive interval (tests shorten it) */
  readonly keepAliveMs?: number;
  /** the server's TurnGate: A2A turns counted in /metrics and waited for by a graceful shutdown */
  readonly admission?: TurnAdmission;
}

/** undefined when endpoints.yml has no `a2a_server` block or says `enabled: false` */
export function prepareA2aServer(options: A2aSetupOptions): A2aServer | undefined {
  const loaded = loadA2aServerConfig(options.assistant.endpoints);
  if (!loaded) return undefined;
  const { config } = loaded;
  assertGuardrails({
    assistant: options.assistant,
    env: options.env,
    inMemoryState: config.taskStore === 'in_memory' || trackerStoreInMemory(options.assistant.endpoints),
  });
  const claimLeaseMs = claimLeaseOf(options.env);
  if (config.contextIdAsSenderId)
    options.logger.warn(
      { key: 'a2a_server.context_id_as_sender_id' },
      'a2a_server: context_id_as_sender_id is on: an A2A contextId is the conversation id as it is, so ' +
        'any channel client sending that id as its sender, and any other A2A caller using that contextId, ' +
        'reaches the conversation. Turn it off unless you migrate Rasa trackers (docs/a2a.md).',
    );
  if (loaded.unknownKeys.length > 0)
    options.logger.warn({ keys: loaded.unknownKeys }, 'a2a_server: unknown keys are ignored');
  const chosen = chooseCardContent({ ...options, config });
  for (const warning of chosen.warnings)
    options.logger.warn({ agentCardPath: config.agentCardPath }, warning);
  const mountPaths = a2aMountPaths(config);
  let published: PublishedCards | undefined;
  let held: { handler: SemanticHandler; push: PushService | undefined } | undefined;
  let endpoint: string | undefined;
  const router = cardRouter({ cards: () => published });
  return {
    config,
    mountPaths,
    routers: mountPaths.map((path) => ({ path, router })),
    listening(address) {
      endpoint = resolvePublicUrl(config, address);
      published = publishCards(servedCards(chosen.content, endpoint), (options.now ?? (() => new Date()))());
      options.logger.info({ url: endpoint, skills: chosen.content.skills.length }, 'A2A AgentCard published');
    },
    jsonRpc(deps) {
      const handler = new SemanticHandler({
        agent: deps.agent,
        store: deps.taskStore,
        ...(deps.signals ? { signals: deps.signals } : {}),
        ...(claimLeaseMs !== undefined ? { claimLeaseMs } : {}),
        commandGenerator: deps.commandGenerator,
        settings: config,
        logger: deps.logger,
        ...(deps.admission ? { admission: deps.admission } : {}),
      });
      const push = config.pushNotificationsEnabled ? pushService(handler, config, deps.logger) : undefined;
      held = { handler, push };
      const verifier = config.auth ? new JwtVerifier({ config: config.auth }) : undefined;
      const bodyLimit = Math.max(DEFAULT_RPC_BODY_LIMIT, 2 * config.limits.maxMessageBytes);
      const rpcOptions = {
        handler,
        bodyLimit,
        logger: deps.logger,
        ...(deps.requestLogger ? { requestLogger: deps.requestLogger } : {}),
        ...(push ? { push } : {}),
        ...(verifier ? { authenticate: bearerAuth({ verifier, logger: deps.logger }) } : {}),
        ...(deps.keepAliveMs !== undefined ? { keepAliveMs: deps.keepAliveMs } : {}),
      };
      // on shutdown the task timers stop and push deliveries under way are abandoned (a receiver
      // trickling its answer must not keep the process alive)
      const closing = {
        close: () => {
          handler.close();
          push?.close();
          void deps.signals?.close();
        },
      };
      const served = withGracefulShutdown({
        rpc: rpcRouter(rpcOptions),
        direct: directRpc(rpcOptions),
        handler: closing,
        admission: deps.admission,
      });
      return mountPaths.map((path) => ({
        path,
        router: served.router,
        bodyLimit,
        ...(served.direct ? { direct: served.direct } : {}),
      }));
    },
    stats: async () =>
      (await held?.handler.stats()) ?? {
        contexts: 0,
        tasks: 0,
        taskBytes: 0,
        replayBytes: 0,
        pushConfigs: 0,
      },
    endpointUrl: () => endpoint,
    summary: () => describe(chosen, endpoint),
  };
}

function pushService(handler: SemanticHandler, config: A2aServerConfig, logger: Logger): PushService {
  const guard = new UrlGuard({ allowedHosts: config.pushNotificationAllowedHosts });
  return new PushService({
    store: handler.store,
    tasks: handler,
    events: handler.events,
    guard,
    sender: new PushSender({ guard, logger }),
    logger,
  });
}

function describe(chosen: ChosenCard, endpoint: string | undefined): string {
  const skills = chosen.content.skills.map((skill) => skill.id).join(', ');
  const card = chosen.origin === 'static' ? 'static AgentCard' : `AgentCard skills: ${skills}`;
  return `A2A: JSON-RPC at ${endpoint ?? '(not listening)'}, ${card}`;
}

/** PARLEY_A2A_CLAIM_LEASE_SECONDS: how soon a dead process's contexts are free again (30 s by default) */
function claimLeaseOf(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env['PARLEY_A2A_CLAIM_LEASE_SECONDS']?.trim();
  if (raw === undefined || raw === '') return undefined;
  const seconds = Number(raw);
  if (Number.isInteger(seconds) && seconds >= 1 && seconds <= 3600) return seconds * 1000;
  throw new AppError({
    code: 'A2A_CONFIG_INVALID',
    message: `PARLEY_A2A_CLAIM_LEASE_SECONDS must be a whole number of seconds from 1 to 3600, not '${raw}'.`,
    details: { variable: 'PARLEY_A2A_CLAIM_LEASE_SECONDS' },
  });
}

/** Whether endpoints.yml keeps conversations in memory (then the A2A state stays in memory too). */
function trackerStoreInMemory(endpoints: Readonly<Record<string, unknown>>): boolean {
  const block = endpoints['tracker_store'];
  if (typeof block !== 'object' || block === null) return false;
  const type = String((block as { type?: unknown }).type ?? '').toLowerCase();
  return ['in_memory', 'memory', 'inmemory'].includes(type);
}
