import type { EngineContext } from './engine-context.js';
import { applyEvent } from './events/apply-event.js';
import { stackUpdateEvent } from './events/stack-update.js';
import type { TrackerState } from './events/tracker-state.js';
import type { Event, UnstampedEvent } from './events/types.js';
import type { Stack } from './stack/frames.js';
import { stampEvent } from './events/stamp.js';

/**
 * The events one core call produces, folded into the tracker state as they are emitted so that later
 * steps see earlier effects. A draft lives for one call of the core and is never shared.
 */
export class TurnDraft {
  private current: TrackerState;
  private readonly emitted: Event[] = [];
  private readonly now: number;
  /** stack changes not yet written: consecutive changes become one `stack` event */
  private pendingStack: Stack | undefined;

  constructor(options: { state: TrackerState; context: Pick<EngineContext, 'now'> }) {
    this.current = options.state;
    this.now = options.context.now;
  }

  get state(): TrackerState {
    this.flushStack();
    return this.current;
  }

  get stack(): Stack {
    return this.pendingStack ?? this.current.stack;
  }

  get slots(): Readonly<Record<string, unknown>> {
    return this.current.slots;
  }

  get events(): readonly Event[] {
    this.flushStack();
    return this.emitted;
  }

  emit(event: UnstampedEvent): void {
    this.flushStack();
    const stamped = stampEvent(event, this.now);
    this.current = applyEvent(this.current, stamped);
    this.emitted.push(stamped);
  }

  /** Records a new stack; it is written as one `stack` event (a JSON patch) before the next other event. */
  setStack(stack: Stack): void {
    this.pendingStack = stack;
  }

  private flushStack(): void {
    const stack = this.pendingStack;
    if (stack === undefined) return;
    this.pendingStack = undefined;
    const event = stackUpdateEvent(this.current.stack, stack, this.now);
    if (!event) return;
    this.current = applyEvent(this.current, event);
    this.emitted.push(event);
  }

  setSlot(name: string, value: unknown, metadata?: Readonly<Record<string, unknown>>): void {
    this.emit({ event: 'slot', name, value, ...(metadata ? { metadata } : {}) });
  }
}
