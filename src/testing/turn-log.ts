import type { Event } from '../core/events/types.js';

/** The conversation of one test case, cut into the events before the first message and one slice per user step. */
export class TurnLog {
  private readonly events: Event[];
  private readonly initialCount: number;
  private readonly turns = new Map<number, { readonly start: number; readonly end: number }>();

  constructor(initial: readonly Event[]) {
    this.events = [...initial];
    this.initialCount = initial.length;
  }

  /** Records the events a user step (by its index in the test case's steps) appended. */
  record(stepIndex: number, events: readonly Event[]): void {
    const start = this.events.length;
    this.events.push(...events);
    this.turns.set(stepIndex, { start, end: this.events.length });
  }

  /** Events of the session start (and fixtures), before the first user message. */
  initial(): readonly Event[] {
    return this.events.slice(0, this.initialCount);
  }

  /** The events of a user step's turn, or undefined when the step sent nothing. */
  turn(stepIndex: number): readonly Event[] | undefined {
    const range = this.turns.get(stepIndex);
    return range && this.events.slice(range.start, range.end);
  }

  /** Every event before a user step's turn. */
  before(stepIndex: number): readonly Event[] {
    const range = this.turns.get(stepIndex);
    return this.events.slice(0, range?.start ?? this.events.length);
  }

  all(): readonly Event[] {
    return this.events;
  }
}
