import { assertNever } from '../core/errors.js';
import type { ProgressListener, TrainingProgress } from '../understanding/nlu/progress.js';
import type { CliIo } from './io.js';

export interface ProgressReporter {
  readonly listener: ProgressListener;
  /** clears the progress line on a terminal */
  finish(): void;
}

const CLEAR_LINE = '\r\x1b[2K';

/**
 * Training progress on stderr (stdout keeps only results). On a terminal, one line rewritten in place
 * at every step with the time so far; elsewhere (CI logs, pipes) one plain line per phase.
 */
export function progressReporter(io: CliIo, now: () => number = () => performance.now()): ProgressReporter {
  const started = now();
  if (io.stderrIsTTY) {
    let shown = false;
    return {
      listener: (progress) => {
        const seconds = ((now() - started) / 1000).toFixed(1);
        io.stderr(`${CLEAR_LINE}Training: ${stepText(progress)} … ${seconds} s`);
        shown = true;
      },
      finish: () => {
        if (shown) io.stderr(CLEAR_LINE);
        shown = false;
      },
    };
  }
  let phase: TrainingProgress['phase'] | undefined;
  return {
    listener: (progress) => {
      if (progress.phase === phase) return;
      phase = progress.phase;
      io.stderr(`Training: ${phaseText(progress)}\n`);
    },
    finish: () => undefined,
  };
}

function stepText(progress: TrainingProgress): string {
  if (progress.phase !== 'classifier') return phaseText(progress);
  const detail = progress.detail ? ` (${progress.detail})` : '';
  return `intent classifier, member ${progress.step} of ${progress.steps}${detail}`;
}

function phaseText(progress: TrainingProgress): string {
  switch (progress.phase) {
    case 'features':
      return 'word and character n-gram features';
    case 'classifier':
      return `intent classifier (${progress.steps} member${progress.steps === 1 ? '' : 's'})`;
    case 'entities':
      return 'entity extractors';
    default:
      return assertNever(progress.phase, 'training phase');
  }
}
