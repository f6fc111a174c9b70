import { Command, InvalidArgumentError, Option } from 'commander';
import type { CliIo } from './io.js';

interface EvaluateFlags {
  readonly train: string;
  readonly test: string;
  readonly format: 'text' | 'json';
  readonly project?: string;
  readonly config?: string;
  readonly threshold?: number;
  readonly seed?: number;
}

/** `parley nlu evaluate`: train the intent classifier on one file, score it on another. */
export function nluCommand(io: CliIo): Command {
  const nlu = new Command('nlu').description('offline NLU tools');
  const evaluate = new Command('evaluate')
    .description(
      'train the intent classifier on a train file and report accuracy, macro-F1, out-of-scope ' +
        'recall and precision, latency, training time and model size on a test file',
    )
    .requiredOption('--train <file>', 'training data: Rasa nlu.yml, or CSV with text and category columns')
    .requiredOption('--test <file>', 'test data, in either format')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('-p, --project <dir>', "use the pipeline of this assistant's config.yml (default: Parley's)")
    .option('-c, --config <path>', 'use the pipeline of this config file')
    .option('--threshold <number>', 'fallback threshold for out-of-scope answers (0 turns it off)', fraction)
    .option('--seed <number>', 'random seed for training', wholeNumber)
    .action(async (flags: EvaluateFlags) => {
      const { runNluEvaluate } = await import('./run-nlu-evaluate.js');
      io.setExitCode(await runNluEvaluate(io, flags));
    });
  nlu.addCommand(evaluate);
  return nlu;
}

function fraction(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 1)
    throw new InvalidArgumentError('expected a number from 0 to 1');
  return number;
}

function wholeNumber(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number)) throw new InvalidArgumentError('expected a whole number');
  return number;
}
