import type { Assistant } from '../core/assistant.js';
import { isRunnableBuiltInAction } from '../core/built-ins/index.js';
import type { ActionOutcome, ActionRequest, ActionRunner } from '../core/ports.js';

/**
 * What kind of implementation ran an action. `unknown` is a name that resolves to nothing (a project
 * that passed validation never has one).
 */
export type ActionKind = 'response' | 'builtin' | 'custom' | 'unknown';

/** `error`: the action failed (its outcome says so, or it threw). */
export type CallOutcome = 'ok' | 'error';

/** Hears of every action run (metrics); must be cheap and must not throw. */
export interface ActionObserver {
  actionFinished(kind: ActionKind, seconds: number, outcome: CallOutcome): void;
}

/**
 * The kind that will run `name`, in the order the action runner resolves it: a declared custom action
 * (even one overriding a built-in), a built-in, then a response.
 */
export function actionKindOf(assistant: Assistant, name: string): ActionKind {
  if (assistant.domain.actions.has(name)) return 'custom';
  if (isRunnableBuiltInAction(name)) return 'builtin';
  if (assistant.domain.responses.has(name)) return 'response';
  return 'unknown';
}

/** An ActionRunner that times every run of the runner it wraps and reports it; results pass unchanged. */
export class InstrumentedActionRunner implements ActionRunner {
  private readonly inner: ActionRunner;
  private readonly observer: ActionObserver;
  private readonly kindOf: (name: string) => ActionKind;

  constructor(options: { inner: ActionRunner; observer: ActionObserver; assistant: Assistant }) {
    this.inner = options.inner;
    this.observer = options.observer;
    const assistant = options.assistant;
    this.kindOf = (name) => actionKindOf(assistant, name);
  }

  async run(request: ActionRequest): Promise<ActionOutcome> {
    const kind = this.kindOf(request.actionName);
    const started = performance.now();
    let outcome: CallOutcome = 'error';
    try {
      const result = await this.inner.run(request);
      if (result.ok) outcome = 'ok';
      return result;
    } finally {
      this.observer.actionFinished(kind, (performance.now() - started) / 1000, outcome);
    }
  }
}
