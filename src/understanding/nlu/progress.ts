/**
 * A training phase as it starts, so that a terminal can show where a long training is. `step` counts
 * from 1 within phases that have several steps (the ensemble members); `detail` names the step.
 */
export interface TrainingProgress {
  readonly phase: 'features' | 'classifier' | 'entities';
  readonly step: number;
  readonly steps: number;
  readonly detail?: string;
}

export type ProgressListener = (progress: TrainingProgress) => void;
