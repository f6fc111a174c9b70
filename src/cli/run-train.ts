import { join } from 'node:path';
import { AppError } from '../core/errors.js';
import type { Diagnostic } from '../core/errors.js';
import { loadProject } from '../project/load-project.js';
import type { LoadedProject, LoadResult } from '../project/load-project.js';
import type { ProjectLocation } from '../project/load/discover.js';
import { ClassifierError } from '../understanding/nlu/classifier/errors.js';
import { EntityError } from '../understanding/nlu/entities/errors.js';
import { formatDiagnosticsText } from './format-diagnostics.js';
import type { CliIo } from './io.js';
import { findModel } from './model-archive.js';
import { projectFingerprint } from './model-source.js';
import { trainModel } from './train-model.js';
import { progressReporter } from './training-progress.js';
import type { ProgressReporter } from './training-progress.js';

const SILENT_PROGRESS: ProgressReporter = { listener: () => undefined, finish: () => undefined };

export interface TrainRunOptions {
  readonly location: ProjectLocation;
  /** the folder of models (default: models/ in the project) */
  readonly out?: string;
  readonly fixedName?: string;
  readonly rasaVersion?: string;
  /** train even when a model of the same inputs exists */
  readonly force: boolean;
  /**
   * `errors` (default): validate and refuse on errors; `fail-on-warnings`: on warnings too
   * (`--fail-on-validation-warnings`); `skip`: only load (`--skip-validation`), refusing only files that
   * cannot be loaded
   */
  readonly validation?: 'errors' | 'fail-on-warnings' | 'skip';
  /** `--quiet`: no progress, no notes, no timing line; problems and the saved model only */
  readonly quiet?: boolean;
}

/**
 * Validates the project (refusing it with every diagnostic when there is an error), then trains and
 * writes a model unless the models folder already has one of the same fingerprint. Exit 0 when a model
 * is there afterwards, 1 when the project or its training data is at fault.
 */
export async function runTrain(io: CliIo, options: TrainRunOptions): Promise<number> {
  const checked = await checkProject(io, options);
  if (!checked) return 1;
  const { project } = checked;
  const out = options.out ?? join(project.files.root, 'models');
  const fingerprint = projectFingerprint(project);
  const existing = options.force ? undefined : findModel(out, fingerprint);
  if (existing !== undefined) {
    io.stdout(`Nothing changed. You can use the old model stored at '${existing}'.\n`);
    return 0;
  }
  const progress = options.quiet ? SILENT_PROGRESS : progressReporter(io);
  try {
    const trained = trainModel({
      project,
      fingerprint,
      out,
      onProgress: progress.listener,
      ...(options.fixedName ? { fixedName: options.fixedName } : {}),
    });
    progress.finish();
    io.stdout(`Your Parley model is trained and saved at '${trained.path}'.\n`);
    if (options.quiet) return 0;
    // the component notes were printed with the diagnostics; what was indexed is news
    if (trained.knowledgeNote) io.stderr(`Note: ${trained.knowledgeNote}\n`);
    io.stderr(
      trained.metadata.understanding === 'llm'
        ? 'No NLU to train: the project understands through an LLM command generator.\n'
        : `Trained the NLU pipeline${trained.metadata.understanding === 'hybrid' ? ' (hybrid: NLU next to the LLM command generator)' : ''} in ${trained.metadata.trainingSeconds.toFixed(1)} s.\n`,
    );
    return 0;
  } catch (error) {
    progress.finish();
    if (!(error instanceof ClassifierError || error instanceof EntityError || error instanceof AppError))
      throw error;
    io.stderr(`parley: training failed: ${error.message}\n`);
    return 1;
  }
}

/** The project, loaded and (unless skipped) validated, its diagnostics printed; undefined: refused. */
async function checkProject(
  io: CliIo,
  options: TrainRunOptions,
): Promise<{ project: LoadedProject } | undefined> {
  const loadOptions = options.rasaVersion ? { rasaVersion: options.rasaVersion } : {};
  const mode = options.validation ?? 'errors';
  // Loaded on use, as `parley validate` does, so that other commands do not pay for the validator.
  const { project, diagnostics, hasErrors } =
    mode === 'skip'
      ? loaded(loadProject(options.location, loadOptions))
      : (await import('../project/validate/index.js')).validateProject(options.location, loadOptions);
  const quiet = options.quiet === true;
  if (diagnostics.some((item) => !quiet || item.severity !== 'info'))
    io.stderr(formatDiagnosticsText(diagnostics, { quiet }));
  if (hasErrors) {
    io.stderr('parley: the project has errors; nothing was trained.\n');
    return undefined;
  }
  if (mode === 'fail-on-warnings' && diagnostics.some((item) => item.severity === 'warning')) {
    io.stderr('parley: the project has warnings (--fail-on-validation-warnings); nothing was trained.\n');
    return undefined;
  }
  return { project };
}

function loaded(result: LoadResult): {
  project: LoadedProject;
  diagnostics: readonly Diagnostic[];
  hasErrors: boolean;
} {
  return {
    project: result.project,
    diagnostics: result.diagnostics.all,
    hasErrors: result.diagnostics.hasErrors,
  };
}
