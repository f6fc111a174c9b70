import { applyEvent } from '../core/events/apply-event.js';
import { applyEvents } from '../core/events/fold-events.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import type { BotUttered, Event, UnstampedEvent } from '../core/events/types.js';
import type { TrackerStore } from '../core/ports.js';
import { stampEvent } from '../core/events/stamp.js';

/** The events a turn appended, and the bot messages among them. */
/** All an edge needs after a turn, so that none reads the store again. */
export interface TurnResult {
  /** the events this turn appended, in order */
  readonly events: readonly Event[];
  /** the bot messages among them */
  readonly messages: readonly BotUttered[];
  /** the dialogue state after the turn, as stored with it */
  readonly state: TrackerState;
  /** how many events the conversation holds after the turn */
  readonly eventCount: number;
}

/** The events of a turn being built: applied to the state as they come, stored together at the end. */
export class OpenTurn {
  readonly conversationId: string;
  readonly now: number;
  state: TrackerState;
  /** the state as loaded, before this turn's first event */
  readonly opened: TrackerState;
  private readonly storedCount: number;
  private readonly added: Event[] = [];
  private readonly store: TrackerStore;
  private readonly onBotMessage: ((message: BotUttered) => void) | undefined;
  private stored: Promise<readonly Event[]> | undefined;

  constructor(options: {
    conversationId: string;
    storedCount: number;
    state: TrackerState;
    now: number;
    store: TrackerStore;
    onBotMessage?: (message: BotUttered) => void;
  }) {
    this.onBotMessage = options.onBotMessage;
    this.conversationId = options.conversationId;
    this.storedCount = options.storedCount;
    this.state = options.state;
    this.opened = options.state;
    this.now = options.now;
    this.store = options.store;
  }

  /** the stored history (read once, on demand) followed by this turn's events */
  async allEvents(): Promise<readonly Event[]> {
    // the turn holds the conversation's lock: what is stored does not change under it
    this.stored ??= this.storedCount === 0 ? Promise.resolve([]) : this.store.loadAll(this.conversationId);
    const stored = await this.stored;
    return [...stored.slice(0, this.storedCount), ...this.added];
  }

  /** Events the core already applied to a state derived from this turn's: take both as they are. */
  adopt(applied: { readonly events: readonly Event[]; readonly state: TrackerState }): void {
    this.added.push(...applied.events);
    this.state = applied.state;
    for (const event of applied.events) this.announce(event);
  }

  add(event: UnstampedEvent | Event): void {
    const stamped = stampEvent(event, this.now);
    this.state = applyEvent(this.state, stamped);
    this.added.push(stamped);
    this.announce(stamped);
  }

  /**
   * An event from outside the engine (an action, the HTTP API), which may be a `rewind` or `undo`:
   * those revert earlier events, so the state is re-folded from the history they leave applied.
   */
  async addExternal(event: UnstampedEvent | Event): Promise<void> {
    if (!revertsEvents(event)) {
      this.add(event);
      return;
    }
    const stamped = stampEvent(event, this.now);
    this.state = applyEvents(this.state, await this.allEvents(), [stamped]);
    this.added.push(stamped);
  }

  private announce(event: Event): void {
    if (event.event === 'bot' && this.onBotMessage) this.onBotMessage(event);
  }

  async commit(): Promise<TurnResult> {
    const snapshot = { eventCount: this.storedCount + this.added.length, state: this.state };
    await this.store.append(this.conversationId, this.added, { expectedCount: this.storedCount, snapshot });
    return {
      events: this.added,
      messages: this.added.filter((event): event is BotUttered => event.event === 'bot'),
      state: snapshot.state,
      eventCount: snapshot.eventCount,
    };
  }
}

/** `rewind` and `undo` revert earlier events: applying them needs the history. */
export function revertsEvents(event: UnstampedEvent | Event): boolean {
  return event.event === 'rewind' || event.event === 'undo';
}
