import { formatDiagnosticsText } from '../format-diagnostics.js';
import type { CliIo } from '../io.js';
import { composeAgent } from '../compose.js';
import { openStores } from '../stores.js';
import { chooseUnderstanding } from '../understanding.js';
import { useModel } from '../use-model.js';
import type { ModelFlags } from '../use-model.js';
import { loadProject } from '../../project/load-project.js';
import type { ProjectLocation } from '../../project/load/discover.js';
import type { Agent } from '../../runtime/agent.js';
import type { Logger } from '../../runtime/logger.js';

export interface OpenAssistantOptions {
  readonly location: ProjectLocation;
  readonly projectRoot: string;
  readonly model: ModelFlags;
  readonly logger: Logger;
  readonly rasaVersion?: string;
}

export interface OpenAssistant {
  readonly agent: Agent;
  /** closes the stores */
  close(): Promise<void>;
}

/**
 * The assistant as `parley run` serves it, composed in process: the project (refused with every
 * diagnostic when it has errors), its model (the newest matching archive in models/, or `-m`, or one
 * trained first) and understanding, its stores (endpoints.yml; a SQLite file in the project by default,
 * connected now) and its actions. Problems are printed; undefined means the shell cannot start.
 */
export async function openAssistant(
  io: CliIo,
  options: OpenAssistantOptions,
): Promise<OpenAssistant | undefined> {
  const { project, diagnostics } = loadProject(
    options.location,
    options.rasaVersion ? { rasaVersion: options.rasaVersion } : {},
  );
  if (diagnostics.hasErrors) {
    io.stderr(formatDiagnosticsText(diagnostics.all));
    return undefined;
  }
  const model = useModel(io, { project, logger: options.logger, model: options.model, quiet: false });
  if (!model) return undefined;
  const understanding = chooseUnderstanding(project.assistant, {
    logger: options.logger,
    ...(model.nlu ? { trained: model.nlu } : {}),
  });
  if (!understanding.ok) {
    io.stderr(`parley shell: ${understanding.message}\n`);
    return undefined;
  }
  const stores = await openStores({
    assistant: project.assistant,
    projectRoot: options.projectRoot,
    logger: options.logger,
  });
  const { lockStore } = stores;
  const agent = await composeAgent({
    assistant: project.assistant,
    projectRoot: options.projectRoot,
    trackerStore: stores.publishingTrackerStore,
    lockStore,
    commandGenerator: understanding.generator,
    logger: options.logger,
    warnUnprovidedActions: true,
    ...(model.knowledge ? { knowledge: model.knowledge } : {}),
  });
  return { agent, close: () => stores.close() };
}
