import type { TurnDraft } from '../draft.js';
import type { EngineContext } from '../engine-context.js';
import type { Flow } from '../flows/types.js';
import type { Frame } from '../stack/frames.js';

/** What running a step tells the loop: go on, or stop and run this action. */
export type StepResult = { readonly kind: 'continue' } | { readonly kind: 'pause'; readonly action: string };

export const CONTINUE: StepResult = { kind: 'continue' };

export function pause(action: string): StepResult {
  return { kind: 'pause', action };
}

/** The frame being advanced, with its flow; the frame is the top of the stack. */
export interface StepScope {
  readonly draft: TurnDraft;
  readonly context: EngineContext;
  readonly flow: Flow;
  readonly frame: Frame;
}
