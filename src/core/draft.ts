import type { EngineContext } from './engine-context.js';
import { applyEvent } from './events/apply-event.js';
import { stackUpdateEvent } from './events/stack-update.js';
import type { TrackerState } from './events/tracker-state.js';
import type { Event, UnstampedEvent } from './events/types.js';
import type { Stack } from './stack/frames.js';

/**
 * The events one core call produces, folded into the tracker state as they are emitted so that later
 * steps see earlier effects. A draft lives for one call of the core and is never shared.
 */
export class TurnDraft {
  private current: TrackerState;
  private readonly emitted: Event[] = [];
  private readonly now: number;

  constructor(options: { state: TrackerState; context: Pick<EngineContext, 'now'> }) {
    this.current = options.state;
    this.now = options.context.now;
  }

  get state(): TrackerState {
    return this.current;
  }

  get stack(): Stack {
    return this.current.stack;
  }

  get slots(): Readonly<Record<string, unknown>> {
    return this.current.slots;
  }

  get events(): readonly Event[] {
    return this.emitted;
  }

  emit(event: UnstampedEvent): void {
    const stamped = { ...event, timestamp: event.timestamp ?? this.now } as Event;
    this.current = applyEvent(this.current, stamped);
    this.emitted.push(stamped);
  }

  /** Records a new stack as one `stack` event (a JSON patch), if anything changed. */
  setStack(stack: Stack): void {
    const event = stackUpdateEvent(this.current.stack, stack, this.now);
    if (event) this.emit(event);
  }

  setSlot(name: string, value: unknown, metadata?: Readonly<Record<string, unknown>>): void {
    this.emit({ event: 'slot', name, value, ...(metadata ? { metadata } : {}) });
  }
}
