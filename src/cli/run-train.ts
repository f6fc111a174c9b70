import { join } from 'node:path';
import { AppError } from '../core/errors.js';
import type { ProjectLocation } from '../project/load/discover.js';
import { ClassifierError } from '../understanding/nlu/classifier/errors.js';
import { EntityError } from '../understanding/nlu/entities/errors.js';
import { formatDiagnosticsText } from './format-diagnostics.js';
import type { CliIo } from './io.js';
import { findModel, fingerprintProject } from './model-archive.js';
import { PARLEY_VERSION } from '../version.js';
import { trainModel } from './train-model.js';
import { progressReporter } from './training-progress.js';

export interface TrainRunOptions {
  readonly location: ProjectLocation;
  /** the folder of models (default: models/ in the project) */
  readonly out?: string;
  readonly fixedName?: string;
  readonly rasaVersion?: string;
  /** train even when a model of the same inputs exists */
  readonly force: boolean;
}

/**
 * Validates the project (refusing it with every diagnostic when there is an error), then trains and
 * writes a model unless the models folder already has one of the same fingerprint. Exit 0 when a model
 * is there afterwards, 1 when the project or its training data is at fault.
 */
export async function runTrain(io: CliIo, options: TrainRunOptions): Promise<number> {
  // Loaded on use, as `parley validate` does, so that other commands do not pay for the validator.
  const { validateProject } = await import('../project/validate/index.js');
  const { project, diagnostics, hasErrors } = validateProject(
    options.location,
    options.rasaVersion ? { rasaVersion: options.rasaVersion } : {},
  );
  if (diagnostics.length > 0) io.stderr(formatDiagnosticsText(diagnostics));
  if (hasErrors) {
    io.stderr('parley: the project has errors; nothing was trained.\n');
    return 1;
  }
  const out = options.out ?? join(project.files.root, 'models');
  const fingerprint = fingerprintProject(project.files, {
    parleyVersion: PARLEY_VERSION,
    rasaVersion: project.assistant.config.rasaVersion,
  });
  const existing = options.force ? undefined : findModel(out, fingerprint);
  if (existing !== undefined) {
    io.stdout(`Nothing changed. You can use the old model stored at '${existing}'.\n`);
    return 0;
  }
  const progress = progressReporter(io);
  try {
    const trained = trainModel({
      project,
      fingerprint,
      out,
      onProgress: progress.listener,
      ...(options.fixedName ? { fixedName: options.fixedName } : {}),
    });
    progress.finish();
    for (const note of trained.metadata.notes) io.stderr(`Note: ${note}\n`);
    io.stderr(
      trained.metadata.understanding === 'llm'
        ? 'No NLU to train: the project understands through an LLM command generator.\n'
        : `Trained the NLU pipeline${trained.metadata.understanding === 'hybrid' ? ' (hybrid: NLU next to the LLM command generator)' : ''} in ${trained.metadata.trainingSeconds.toFixed(1)} s.\n`,
    );
    io.stdout(`Your Parley model is trained and saved at '${trained.path}'.\n`);
    return 0;
  } catch (error) {
    progress.finish();
    if (!(error instanceof ClassifierError || error instanceof EntityError || error instanceof AppError))
      throw error;
    io.stderr(`parley: training failed: ${error.message}\n`);
    return 1;
  }
}
