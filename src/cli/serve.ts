import type { LockStore, TrackerStore } from '../core/ports.js';
import { prepareA2aServer } from '../a2a/setup.js';
import { openTaskSignals, openTaskStore } from './a2a-task-store.js';
import { AppError } from '../core/errors.js';
import { validateProject } from '../project/validate/index.js';
import type { ProjectLocation } from '../project/load/discover.js';
import type { Logger } from '../runtime/logger.js';
import { createRequestListener } from '../server/app.js';
import type { MountedRouter } from '../server/app.js';
import { listen } from '../server/http-server.js';
import type { RunningServer, TlsFiles } from '../server/http-server.js';
import { ApiAuth, requireAuth } from '../server/auth.js';
import type { ApiAuthConfig } from '../server/auth.js';
import { instrumentLockStore, instrumentTrackerStore } from '../runtime/instrumented-stores.js';
import { ServerMetrics, metricsRouter } from '../server/metrics.js';
import type { ServerMetricsOptions } from '../server/metrics.js';
import { RequestLog, requestLogger } from '../server/request-log.js';
import { TurnGate } from '../server/turn-gate.js';
import type { Environment } from '../understanding/llm/config.js';
import { selectChannels } from './channels.js';
import { logStartUpWarnings } from './start-up-warnings.js';
import { openStores } from './stores.js';
import { composeAgent } from './compose.js';
import { formatDiagnosticsText } from './format-diagnostics.js';
import { httpApiRouter } from './http-api.js';
import { INSPECT_PATH, createInspector } from '../server/inspect/index.js';
import { resolveLlmConfig } from '../understanding/llm/config.js';
import { loadOrTrainModel } from './model-source.js';
import { PARLEY_VERSION } from '../version.js';
import { chooseUnderstanding } from './understanding.js';

export interface ServeOptions {
  readonly location: ProjectLocation;
  readonly projectRoot: string;
  readonly port: number;
  readonly host: string;
  readonly logger: Logger;
  readonly connector?: string;
  readonly cors?: readonly string[];
  readonly tls?: TlsFiles;
  readonly rasaVersion?: string;
  readonly env?: Environment;
  /** stores given by the caller (tests); otherwise endpoints.yml decides */
  readonly trackerStore?: TrackerStore;
  readonly lockStore?: LockStore;
  /** `--enable-api`: serve the HTTP API, guarded by `auth` (token and/or JWT) */
  readonly enableApi?: boolean;
  readonly auth?: ApiAuthConfig;
  /** `-m/--model`: an archive or a folder of them; default: the newest matching model in models/, or train */
  readonly modelPath?: string;
  /** the active-conversation window and cap of /metrics */
  readonly metrics?: ServerMetricsOptions;
  /**
   * `--metrics-without-auth`: serve /metrics to anyone although the HTTP API has a token or JWT (for a
   * scraper that cannot send credentials, on a port only it reaches)
   */
  readonly metricsWithoutAuth?: boolean;
  /** the A2A SSE keep-alive interval (default 15 s; tests shorten it) */
  readonly a2aKeepAliveMs?: number;
  /** how long a shutdown lets connections finish after the last turn (default 2 s; tests lengthen it) */
  readonly closeGraceMs?: number;
}

export interface ParleyServer extends RunningServer {
  /** what the server runs with, for the start-up message */
  readonly summary: readonly string[];
  /** what GET /metrics serves */
  readonly metrics: ServerMetrics;
}

/**
 * Loads the assistant and serves it: refuses a project with errors (listing them all) and an LLM
 * pipeline without a configured LLM, then wires understanding, stores, actions and channels onto
 * one port.
 */
export async function startServer(options: ServeOptions): Promise<ParleyServer> {
  const { project, diagnostics, hasErrors } = validateProject(options.location, {
    ...(options.rasaVersion ? { rasaVersion: options.rasaVersion } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  if (hasErrors)
    throw new AppError({
      code: 'PROJECT_INVALID',
      message: `The assistant has errors:\n${formatDiagnosticsText(diagnostics)}`,
      details: { diagnostics },
    });
  logStartUpWarnings(options.logger, diagnostics);
  const assistant = project.assistant;
  // before any training: a bad a2a_server block or an incompatible setup fails fast
  const a2a = prepareA2aServer({
    assistant,
    projectRoot: options.projectRoot,
    env: options.env ?? process.env,
    logger: options.logger,
    fallbackVersion: PARLEY_VERSION,
  });
  // an unusable --jwt-secret / --jwt-method fails before anything is trained or opened
  const apiAuth = options.enableApi ? await ApiAuth.create(options.auth) : undefined;
  // an LLM named but not configured fails before any training starts
  const llm = resolveLlmConfig(assistant, options.env);
  if (!llm.ok) throw llm.error;
  const model = loadOrTrainModel({
    project,
    logger: options.logger,
    train: true,
    ...(options.modelPath !== undefined ? { modelPath: options.modelPath } : {}),
  });
  const understanding = chooseUnderstanding(assistant, {
    logger: options.logger,
    ...(options.env ? { env: options.env } : {}),
    ...(model.nlu ? { trained: model.nlu } : {}),
  });
  if (!understanding.ok) throw new AppError({ code: 'LLM_NOT_CONFIGURED', message: understanding.message });
  // inside a request, logs carry its id: the agent's, the channels' and the turn gate's
  const requestLog = new RequestLog({ logger: options.logger });
  // channels before stores: an unusable credentials.yml fails the start with nothing to close
  const channels = await selectChannels({
    credentials: project.files.credentials ? assistant.credentials : undefined,
    ...(options.connector ? { connector: options.connector } : {}),
    projectRoot: options.projectRoot,
    logger: requestLog.logger,
  });
  const metrics = new ServerMetrics(options.metrics);
  const stores = await openStores({
    assistant,
    projectRoot: options.projectRoot,
    logger: options.logger,
    brokerObserver: metrics,
    ...(options.trackerStore ? { trackerStore: options.trackerStore } : {}),
    ...(options.lockStore ? { lockStore: options.lockStore } : {}),
  });
  if (project.files.endpoints === undefined) logWithoutEndpoints(options.logger, stores);
  try {
    const { trackerStore, lockStore } = stores;
    const agent = await composeAgent({
      assistant,
      projectRoot: options.projectRoot,
      // each stored turn's events go to the event broker (when endpoints.yml has one), then are timed
      trackerStore: instrumentTrackerStore(stores.publishingTrackerStore, metrics),
      lockStore: instrumentLockStore(lockStore, metrics),
      commandGenerator: understanding.generator,
      logger: requestLog.logger,
      actionObserver: metrics,
      warnUnprovidedActions: true,
      ...(model.knowledge ? { knowledge: model.knowledge } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
    const gate = new TurnGate({
      agent,
      logger: requestLog.logger,
      observer: metrics,
      requests: requestLog,
    });
    const metricsGuard =
      apiAuth && !apiAuth.isOpen && !options.metricsWithoutAuth ? requireAuth(apiAuth) : undefined;
    const routers: MountedRouter[] = [{ path: '/metrics', router: metricsRouter(metrics, metricsGuard) }];
    const api = apiAuth
      ? httpApiRouter({
          agent,
          channels,
          logger: requestLog.logger,
          auth: apiAuth,
          turns: gate,
          model: { path: model.modelPath, id: model.metadata.modelId },
          status: {
            understanding: understanding.kind,
            tracker_store: stores.trackerDescription,
            lock_store: stores.lockDescription,
            ...(stores.brokerDescription ? { event_broker: stores.brokerDescription } : {}),
          },
        })
      : undefined;
    if (api) routers.push(api.mounted);
    // the inspector comes with the HTTP API and its auth (`parley inspect` is `parley run --enable-api`)
    if (apiAuth)
      routers.push({
        path: INSPECT_PATH,
        router: createInspector({ agent, gate, auth: apiAuth, logger: requestLog.logger }),
      });
    // the AgentCard; the A2A JSON-RPC router mounts at a2a.mountPaths too
    if (a2a) routers.push(...a2a.routers);
    const signals = a2a
      ? openTaskSignals({ trackerStore, lockStore, config: a2a.config, logger: options.logger })
      : undefined;
    const a2aRpc = a2a
      ? a2a.jsonRpc({
          agent,
          taskStore: openTaskStore({ trackerStore, config: a2a.config, ...(signals ? { signals } : {}) }),
          ...(signals ? { signals } : {}),
          commandGenerator: understanding.generator,
          logger: requestLog.logger,
          requestLogger: (request) => requestLogger(request, requestLog.logger),
          // A2A turns pass the same door as the channels': /metrics counts them, shutdown waits for them
          admission: gate,
          ...(options.a2aKeepAliveMs !== undefined ? { keepAliveMs: options.a2aKeepAliveMs } : {}),
        })
      : [];
    if (a2a) metrics.watchA2a(() => a2a.stats());
    const app = createRequestListener({
      gate,
      channels,
      routers,
      bodyReadingRouters: a2aRpc,
      requestLog,
      // mounted after the routers: an HTTP API serving its own (authenticated) /status takes precedence
      publicStatus: true,
      ...(options.cors ? { cors: options.cors } : {}),
    });
    const running = await listen({
      app,
      gate,
      channels,
      port: options.port,
      host: options.host,
      ...(options.tls ? { tls: options.tls } : {}),
      ...(options.closeGraceMs !== undefined ? { closeGraceMs: options.closeGraceMs } : {}),
      onClosed: async () => {
        await stores.close();
      },
    });
    a2a?.listening({ host: options.host, port: running.port, tls: options.tls !== undefined });
    const summary = [
      `channels: ${channels.map((channel) => channel.name).join(', ')}`,
      `understanding: ${understanding.kind}`,
      `model: ${model.modelPath}${model.trainedNow ? ' (trained now)' : ''}`,
      `tracker store: ${stores.trackerDescription}`,
      `lock store: ${stores.lockDescription}`,
      ...(stores.brokerDescription ? [`event broker: ${stores.brokerDescription}`] : []),
      ...(api ? [api.summary] : []),
      ...(metricsGuard ? ['metrics: HTTP API auth'] : []),
      ...(a2a ? [a2a.summary()] : []),
    ];
    return { ...running, summary, metrics };
  } catch (error) {
    // e.g. the port is taken: nothing may stay open behind a failed start
    for (const channel of channels) await channel.close?.();
    await stores.close();
    throw error;
  }
}

/**
 * A project without endpoints.yml runs, on defaults: one line says which, and that the A2A server, which
 * only an `a2a_server` block turns on, is off (a first run otherwise leaves an agent-card request to 404).
 */
function logWithoutEndpoints(
  logger: Logger,
  stores: { readonly trackerDescription: string; readonly lockDescription: string },
): void {
  logger.info(
    { trackerStore: stores.trackerDescription, lockStore: stores.lockDescription },
    'no endpoints.yml: the A2A server is off (add an `a2a_server:` block with a `description` to ' +
      `endpoints.yml to serve it, docs/a2a.md); tracker store: ${stores.trackerDescription}; ` +
      `lock store: ${stores.lockDescription}; custom actions from the actions/ folder`,
  );
}
