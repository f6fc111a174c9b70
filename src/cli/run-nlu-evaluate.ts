import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { holdsNoDocument } from '../project/load/yaml-file.js';
import { buildConfig } from '../project/normalise/config.js';
import { isRecord } from '../project/normalise/context.js';
import {
  ClassifierError,
  classifierOptionsFromPipeline,
  DEFAULT_OPTIONS,
  readCsvExamples,
  readNluYamlExamples,
  trainAndEvaluate,
} from '../understanding/nlu/classifier/index.js';
import type {
  ClassifierOptions,
  EvaluationReport,
  LabelledExample,
} from '../understanding/nlu/classifier/index.js';
import type { CliIo } from './io.js';

export interface NluEvaluateOptions {
  readonly train: string;
  readonly test: string;
  readonly format: 'text' | 'json';
  readonly project?: string;
  readonly config?: string;
  readonly threshold?: number;
  readonly seed?: number;
}

/** Trains on `train`, scores on `test`, prints the report; exit 1 when a file cannot be read. */
export async function runNluEvaluate(io: CliIo, options: NluEvaluateOptions): Promise<number> {
  try {
    const train = readExamples(options.train);
    const test = readExamples(options.test);
    const { settings, pipeline } = classifierSettings(options);
    const report = trainAndEvaluate(train, test, settings);
    // null rather than absent, so that the JSON has the same keys with or without out-of-scope data
    const output = {
      train: options.train,
      test: options.test,
      pipeline,
      ...report,
      outOfScope: report.outOfScope ?? null,
      thresholdCurve: report.thresholdCurve ?? null,
    };
    io.stdout(options.format === 'json' ? `${JSON.stringify(output, null, 2)}\n` : formatReport(output));
    return 0;
  } catch (error) {
    if (!(error instanceof ClassifierError)) throw error;
    io.stderr(`parley: ${error.message}\n`);
    return 1;
  }
}

/** `.csv` files are CSV with a header; anything else is read as Rasa NLU YAML. */
export function readExamples(path: string): LabelledExample[] {
  if (!existsSync(path)) throw new ClassifierError('NLU_BAD_DATA_FILE', `${path}: no such file.`);
  const content = readFileSync(path, 'utf8');
  const examples =
    extname(path).toLowerCase() === '.csv'
      ? readCsvExamples(content, path)
      : readNluYamlExamples(content, path);
  if (examples.length === 0)
    throw new ClassifierError('NLU_BAD_DATA_FILE', `${path}: no intent examples found.`);
  return examples;
}

function classifierSettings(options: NluEvaluateOptions): { settings: ClassifierOptions; pipeline: string } {
  const configPath = options.config ?? (options.project ? join(options.project, 'config.yml') : undefined);
  const base = configPath ? optionsFromConfig(configPath) : DEFAULT_OPTIONS;
  return {
    settings: {
      ...base,
      fallback: fallbackWith(base.fallback, options.threshold),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    },
    pipeline: configPath ?? 'default',
  };
}

/** `--threshold` replaces the pipeline's fallback threshold; 0 turns the fallback off. */
function fallbackWith(fallback: ClassifierOptions['fallback'], threshold: number | undefined) {
  if (threshold === undefined) return fallback;
  if (threshold === 0) return undefined;
  return { ambiguityThreshold: 0, intent: 'nlu_fallback', ...fallback, threshold };
}

function optionsFromConfig(path: string): ClassifierOptions {
  if (!existsSync(path)) throw new ClassifierError('NLU_BAD_DATA_FILE', `${path}: no such config file.`);
  const text = readFileSync(path, 'utf8');
  const raw: unknown = holdsNoDocument(text) ? null : load(text, { schema: CORE_SCHEMA });
  return classifierOptionsFromPipeline(buildConfig(isRecord(raw) ? raw : {}).pipeline);
}

interface Printed extends Omit<EvaluationReport, 'outOfScope' | 'thresholdCurve'> {
  readonly train: string;
  readonly test: string;
  readonly pipeline: string;
  readonly outOfScope: EvaluationReport['outOfScope'] | null;
  readonly thresholdCurve: EvaluationReport['thresholdCurve'] | null;
}

export function formatReport(report: Printed): string {
  const percent = (value: number) => `${(100 * value).toFixed(2)} %`;
  const lines = [
    `Trained on ${report.train} (${report.trainExamples} examples, ${report.intents} intents; pipeline: ${report.pipeline})`,
    `Tested on ${report.test} (${report.testExamples} examples)`,
    `  accuracy          ${percent(report.accuracy)}`,
    `  intent accuracy   ${percent(report.intentAccuracy)}  (best trained intent of in-scope examples, no fallback)`,
    `  macro-F1          ${percent(report.macroF1)}`,
  ];
  const oos = report.outOfScope;
  if (oos) {
    lines.push(
      `  out of scope      recall ${percent(oos.recall)}, precision ${percent(oos.precision)} (${oos.examples} examples); in-scope accuracy ${percent(oos.inScopeAccuracy)}`,
    );
    for (const point of report.thresholdCurve ?? [])
      lines.push(
        `    threshold ${point.threshold.toFixed(1)}: in-scope accuracy ${percent(point.inScopeAccuracy)}, out-of-scope recall ${percent(point.outOfScopeRecall)}`,
      );
  }
  lines.push(
    `  latency           p50 ${report.latencyMs.p50.toFixed(3)} ms, p99 ${report.latencyMs.p99.toFixed(3)} ms per message`,
    `  training          ${report.trainingSeconds.toFixed(1)} s`,
    `  model size        ${(report.modelBytes / 1e6).toFixed(1)} MB (${report.modelBytes} bytes)`,
  );
  return `${lines.join('\n')}\n`;
}
