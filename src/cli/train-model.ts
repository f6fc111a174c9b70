import { randomUUID } from 'node:crypto';
import type { Assistant } from '../core/assistant.js';
import { componentNotes } from '../project/compatibility/findings.js';
import type { LoadedProject } from '../project/load-project.js';
import { pipelineShape } from '../understanding/coexistence/setup.js';
import type { PipelineShape } from '../understanding/coexistence/setup.js';
import { trainNlu } from '../understanding/nlu/pipeline.js';
import type { TrainedNlu } from '../understanding/nlu/pipeline.js';
import type { ProgressListener } from '../understanding/nlu/progress.js';
import { serializeTrainedNlu } from '../understanding/nlu/trained-nlu-json.js';
import { writeModel } from './model-archive.js';
import type { ModelMetadata } from './model-archive.js';
import { PARLEY_VERSION } from '../version.js';
import { buildKnowledge } from '../knowledge/build.js';
import type { KnowledgeIndex } from '../knowledge/knowledge-index.js';

export interface TrainModelOptions {
  readonly project: Pick<LoadedProject, 'assistant' | 'files'>;
  /** fingerprintProject() of the project's files */
  readonly fingerprint: string;
  /** the folder the archive is written to */
  readonly out: string;
  /** `--fixed-model-name`: the archive's name instead of `<timestamp>-<fingerprint>` */
  readonly fixedName?: string;
  readonly onProgress?: ProgressListener;
  readonly now?: () => Date;
}

export interface TrainedModel {
  readonly path: string;
  readonly metadata: ModelMetadata;
  /** undefined when the project understands through an LLM: there is no NLU to train */
  readonly nlu: TrainedNlu | undefined;
  /** the knowledge index of an EnterpriseSearchPolicy with documents */
  readonly knowledge: KnowledgeIndex | undefined;
  /** what was indexed for the knowledge search (or why nothing was), for the train command's output */
  readonly knowledgeNote: string | undefined;
}

/**
 * Trains what the project's understanding needs and writes the archive. A project whose config.yml
 * names an LLM command generator gets an archive without NLU (the compiled domain and flows only):
 * Parley runs one understanding per assistant, and it would never ask the NLU pipeline. With an
 * EnterpriseSearchPolicy, the `.txt` documents of its source folder are indexed into `knowledge.json`.
 */
export function trainModel(options: TrainModelOptions): TrainedModel {
  const { assistant } = options.project;
  const now = options.now ?? (() => new Date());
  const started = performance.now();
  const understanding = understandingOf(assistant);
  const training =
    understanding === 'llm'
      ? undefined
      : trainNlu(assistant, {
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          projectDataOnly: understanding === 'hybrid',
        });
  const knowledge = buildKnowledge(assistant.config, options.project.files.root);
  const index = knowledge.kind === 'index' ? knowledge.index : undefined;
  const metadata: ModelMetadata = {
    format: 'parley-model',
    version: 1,
    modelId: randomUUID().replace(/-/g, ''),
    fingerprint: options.fingerprint,
    trainedAt: now().toISOString(),
    parleyVersion: PARLEY_VERSION,
    assistantId: assistant.config.assistantId ?? null,
    language: assistant.config.language,
    rasaVersion: assistant.config.rasaVersion ?? null,
    understanding,
    trainingSeconds: Math.round(performance.now() - started) / 1000,
    // what the table of src/project/compatibility says Parley runs in place of (or not at all)
    notes: [...componentNotes(assistant.config), ...(knowledge.kind === 'none' ? [] : [knowledge.note])],
  };
  const archive = {
    metadata,
    compiled: { domain: assistant.domain, flows: assistant.flows.flows },
    nlu: training ? serializeTrainedNlu(training) : null,
    knowledge: index ? index.toJson() : null,
  };
  const path = writeModel(options.out, archive, options.fixedName);
  const knowledgeNote = knowledge.kind === 'none' ? undefined : knowledge.note;
  return { path, metadata, nlu: training, knowledge: index, knowledgeNote };
}

/**
 * `llm` when config.yml names an LLM command generator (configured or not) alone, `hybrid` when NLU
 * runs next to it or a coexistence router is configured (both need the trained NLU), else `nlu`.
 */
export function understandingOf(assistant: Assistant): PipelineShape {
  return pipelineShape(assistant.config.pipeline);
}
