import type { Domain } from '../core/domain/types.js';
import { createTrackerState } from '../core/events/tracker-state.js';
import type { TrackerState } from '../core/events/tracker-state.js';

/**
 * A new conversation's state under a domain (every slot at its initial value, the
 * `shared_for_coexistence` slots named), and whether a stored snapshot was made under the same one.
 */
export class FreshState {
  private readonly initialSlots: Record<string, unknown>;
  private readonly sharedSlots: readonly string[];

  constructor(domain: Domain) {
    const slots = [...domain.slots.values()];
    this.initialSlots = Object.fromEntries(slots.map((slot) => [slot.name, slot.initialValue ?? null]));
    this.sharedSlots = slots.filter((slot) => slot.sharedForCoexistence === true).map((slot) => slot.name);
  }

  create(conversationId: string): TrackerState {
    return createTrackerState({
      senderId: conversationId,
      initialSlots: this.initialSlots,
      sharedSlots: this.sharedSlots,
    });
  }

  /** A snapshot is a cache of the fold under the domain it was made with; other initial slots void it. */
  fits(state: TrackerState): boolean {
    const saved = state.initialSlots;
    const current = this.initialSlots;
    // a state this process derived shares these objects: every turn of the memory store's snapshots
    if (saved === current && state.sharedSlots === this.sharedSlots) return true;
    if (state.sharedSlots.join('\n') !== this.sharedSlots.join('\n')) return false;
    const names = Object.keys(current);
    if (Object.keys(saved).length !== names.length) return false;
    return names.every(
      (name) => name in saved && JSON.stringify(saved[name]) === JSON.stringify(current[name]),
    );
  }
}
