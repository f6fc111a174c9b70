import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../core/errors.js';
import type { LoadedProject } from '../project/load-project.js';
import type { Logger } from '../runtime/logger.js';
import type { TrainedNlu } from '../understanding/nlu/pipeline.js';
import type { ProgressListener } from '../understanding/nlu/progress.js';
import { deserializeTrainedNlu } from '../understanding/nlu/trained-nlu-json.js';
import { findModel, fingerprintProject, listModels, readModel } from './model-archive.js';
import type { ModelMetadata } from './model-archive.js';
import { PARLEY_VERSION } from '../version.js';
import { trainModel, understandingOf } from './train-model.js';
import { KnowledgeIndex } from '../knowledge/knowledge-index.js';
import type { KnowledgeJson } from '../knowledge/knowledge-index.js';
import { knowledgeDocumentFiles } from '../project/load/knowledge-documents.js';

export interface ModelSourceOptions {
  /** the loaded (and validated) project: its assistant decides what is trained, its files the fingerprint */
  readonly project: Pick<LoadedProject, 'assistant' | 'files'>;
  readonly logger: Logger;
  /**
   * `-m/--model`: an archive, or a folder whose newest archive is taken, whatever it was trained from
   * (a warning is logged when its fingerprint differs from the project's). Never trains.
   */
  readonly modelPath?: string;
  /** where to look for a matching model and write a new one; default `models/` in the project folder */
  readonly modelsDir?: string;
  /** when no model matches: true trains one (and writes it to modelsDir), false throws MODEL_NOT_FOUND */
  readonly train: boolean;
  /** hears of the training phases when training happens */
  readonly onProgress?: ProgressListener;
}

export interface ModelSource {
  /** the pipeline to pass to chooseUnderstanding's `trained`; undefined when the project uses an LLM */
  readonly nlu: TrainedNlu | undefined;
  /** the knowledge index for action_trigger_search; undefined when the model has none */
  readonly knowledge: KnowledgeIndex | undefined;
  readonly modelPath: string;
  readonly metadata: ModelMetadata;
  /** true when no model matched and this call trained (and wrote) one */
  readonly trainedNow: boolean;
}

/**
 * The model `parley run` and `parley test e2e` use, as the issue asks: the archive named by `-m`;
 * else the newest archive in `models/` trained from the project's current files (same fingerprint);
 * else, with `train`, a model trained now and written to `models/` (Rasa refuses to run without a
 * model; Parley trains first). The project's own flows and domain are used for the conversation; the
 * archive supplies the trained NLU.
 *
 * Throws AppError MODEL_NOT_FOUND (no model at `-m`, or none matches and `train` is false) and
 * MODEL_INVALID (the archive is damaged, from another format version, or has no NLU while the project
 * needs it). Synchronous and CPU-bound while training (seconds for a typical assistant).
 */
export function loadOrTrainModel(options: ModelSourceOptions): ModelSource {
  const { files } = options.project;
  const fingerprint = projectFingerprint(options.project);
  if (options.modelPath !== undefined)
    return fromArchive(options, chosenModel(options.modelPath), fingerprint);
  const folder = options.modelsDir ?? join(files.root, 'models');
  const found = findModel(folder, fingerprint);
  if (found !== undefined) return fromArchive(options, found, fingerprint);
  if (!options.train)
    throw new AppError({
      code: 'MODEL_NOT_FOUND',
      message: `No model in ${folder} was trained from the current project files. Run \`parley train\`.`,
    });
  options.logger.info({ folder, fingerprint }, 'no model matches the project files: training one');
  const trained = trainModel({
    project: options.project,
    fingerprint,
    out: folder,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  options.logger.info({ model: trained.path, seconds: trained.metadata.trainingSeconds }, 'model trained');
  return {
    nlu: trained.nlu,
    knowledge: trained.knowledge,
    modelPath: trained.path,
    metadata: trained.metadata,
    trainedNow: true,
  };
}

/** fingerprintProject() of a loaded project: its files, its Rasa version and its knowledge documents. */
export function projectFingerprint(project: Pick<LoadedProject, 'assistant' | 'files'>): string {
  return fingerprintProject(project.files, {
    parleyVersion: PARLEY_VERSION,
    rasaVersion: project.assistant.config.rasaVersion,
    documents: knowledgeDocumentFiles(project.assistant.config, project.files.root),
  });
}

/** `-m PATH`: the file itself, or the newest archive in the folder. */
function chosenModel(path: string): string {
  if (!existsSync(path))
    throw new AppError({
      code: 'MODEL_NOT_FOUND',
      message: `-m/--model ${path}: no such model file or folder.`,
    });
  if (!statSync(path).isDirectory()) return path;
  const newest = listModels(path)[0];
  if (newest === undefined)
    throw new AppError({
      code: 'MODEL_NOT_FOUND',
      message: `${path} holds no model (*.tar.gz). Run \`parley train --out ${path}\`.`,
    });
  return newest;
}

function fromArchive(options: ModelSourceOptions, path: string, fingerprint: string): ModelSource {
  const archive = readModel(path);
  const { metadata } = archive;
  if (metadata.fingerprint !== fingerprint)
    options.logger.warn(
      { model: path, modelFingerprint: metadata.fingerprint, projectFingerprint: fingerprint },
      'the model was trained from other project files; its NLU may not match the flows and domain',
    );
  const needsNlu = understandingOf(options.project.assistant) !== 'llm';
  if (needsNlu && archive.nlu === null)
    throw new AppError({
      code: 'MODEL_INVALID',
      message:
        `${path} cannot be used: it was trained for an LLM command generator and has no NLU, ` +
        'but the project uses the offline NLU pipeline. Train a new model with `parley train`.',
    });
  const nlu = archive.nlu ? deserializeTrainedNlu(archive.nlu, path) : undefined;
  const knowledge = archive.knowledge ? knowledgeIndexOf(archive.knowledge, path) : undefined;
  options.logger.info({ model: path }, 'model loaded');
  return { nlu, knowledge, modelPath: path, metadata, trainedNow: false };
}

function knowledgeIndexOf(json: KnowledgeJson, path: string): KnowledgeIndex {
  try {
    return KnowledgeIndex.fromJson(json);
  } catch (error) {
    throw new AppError({
      code: 'MODEL_INVALID',
      message: `${path} cannot be used: its knowledge.json is not readable (${error instanceof Error ? error.message : String(error)}). Train a new model with \`parley train --force\`.`,
      cause: error,
    });
  }
}
