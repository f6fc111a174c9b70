import { AppError } from '../core/errors.js';
import type { LoadedProject } from '../project/load-project.js';
import type { Logger } from '../runtime/logger.js';
import type { CliIo } from './io.js';
import { loadOrTrainModel } from './model-source.js';
import type { ModelSource } from './model-source.js';
import { progressReporter } from './training-progress.js';

/** `-m/--model` of a command, and where models are kept (default: models/ in the project). */
export interface ModelFlags {
  readonly path?: string;
  readonly modelsDir?: string;
}

/**
 * loadOrTrainModel for a command that talks to a user: training progress on stderr unless `quiet`, the
 * notes and path of a model trained on the way, and a model problem (MODEL_NOT_FOUND, MODEL_INVALID) printed
 * as one line, returning undefined, so that the command can exit 1.
 */
export function useModel(
  io: CliIo,
  options: {
    readonly project: Pick<LoadedProject, 'assistant' | 'files'>;
    readonly logger: Logger;
    readonly model: ModelFlags;
    readonly quiet: boolean;
  },
): ModelSource | undefined {
  const progress = options.quiet ? undefined : progressReporter(io);
  try {
    const source = loadOrTrainModel({
      project: options.project,
      logger: options.logger,
      train: true,
      ...(options.model.path !== undefined ? { modelPath: options.model.path } : {}),
      ...(options.model.modelsDir !== undefined ? { modelsDir: options.model.modelsDir } : {}),
      ...(progress ? { onProgress: progress.listener } : {}),
    });
    progress?.finish();
    if (source.trainedNow && !options.quiet) {
      for (const note of source.metadata.notes) io.stderr(`Note: ${note}\n`);
      io.stderr(`No model matched the project files; trained ${source.modelPath}\n`);
    }
    return source;
  } catch (error) {
    progress?.finish();
    if (!(error instanceof AppError)) throw error;
    io.stderr(`parley: ${error.message}\n`);
    return undefined;
  }
}
