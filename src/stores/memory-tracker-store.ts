import { AppError } from '../core/errors.js';
import { OrderedMap } from '../core/collections/ordered-map.js';
import type { Event } from '../core/events/types.js';
import { conversationPageLimit } from '../core/ports.js';
import type {
  ConversationPage,
  ConversationPageRequest,
  RecentConversation,
  TrackerSnapshot,
  TrackerStore,
} from '../core/ports.js';
import type { PackedEvents } from './packed-events.js';
import { EventPacker, MAX_BLOCK_BYTES, PackingBlock, unpack } from './packed-events.js';

export interface MemoryTrackerStoreOptions {
  /**
   * A conversation without a turn for this long has its events packed (deflated JSON); its snapshot
   * stays as it is, so its next turn reads nothing packed. 0 turns packing off.
   */
  readonly packAfterMs?: number;
  /** milliseconds, for the idle check */
  readonly now?: () => number;
}

interface StoredConversation {
  count: number;
  snapshot: TrackerSnapshot | undefined;
  /** the older events, packed in the order they came */
  readonly packed: PackedEvents[];
  /** the events since the last packing */
  recent: Event[];
  touched: number;
  /** timestamp of the latest event */
  latest: number | undefined;
}

const DEFAULT_PACK_AFTER_MS = 2000;
/** a sweep gives the event loop back after this long and goes on in the next macrotask */
const SWEEP_SLICE_MS = 5;
/**
 * sweeps come at most this often (unless the last one ran out of time), so that the conversations
 * going idle meanwhile are packed together (packed-events.ts: a block costs less than its parts)
 */
const SWEEP_EVERY_MS = 100;

/**
 * Conversations in process memory: for tests, the e2e runner and single-process experiments. A turn
 * reads the snapshot and the events after it, kept as they are; what a turn no longer needs (the events
 * of a conversation that has gone quiet) is packed by a sweep that runs while conversations are
 * pending, so an idle conversation costs a few KB rather than its event objects.
 */
export class MemoryTrackerStore implements TrackerStore {
  private readonly conversations = new Map<string, StoredConversation>();
  private readonly packer = new EventPacker();
  // in the order of the conversations' last turns, the next one due first
  private readonly pending = new OrderedMap<string, true>();
  private readonly packAfterMs: number;
  private readonly now: () => number;
  private sweep: NodeJS.Timeout | NodeJS.Immediate | undefined;

  constructor(options: MemoryTrackerStoreOptions = {}) {
    this.packAfterMs = options.packAfterMs ?? DEFAULT_PACK_AFTER_MS;
    this.now = options.now ?? Date.now;
  }

  describe(): string {
    return 'in memory (conversations are lost on restart)';
  }

  async loadRecent(conversationId: string): Promise<RecentConversation> {
    const stored = this.conversations.get(conversationId);
    if (!stored) return { eventCount: 0, eventsAfterSnapshot: [] };
    const { count, snapshot } = stored;
    if (!snapshot) return { eventCount: count, eventsAfterSnapshot: eventsOf(stored) };
    return { eventCount: count, snapshot, eventsAfterSnapshot: eventsFrom(stored, snapshot.eventCount) };
  }

  async loadAll(conversationId: string): Promise<readonly Event[]> {
    const stored = this.conversations.get(conversationId);
    return stored ? eventsOf(stored) : [];
  }

  async append(
    conversationId: string,
    events: readonly Event[],
    options: { readonly expectedCount: number; readonly snapshot?: TrackerSnapshot },
  ): Promise<void> {
    const stored = this.conversations.get(conversationId) ?? newConversation(this.now());
    if (stored.count !== options.expectedCount)
      throw new AppError({
        code: 'TRACKER_CONFLICT',
        message: `Conversation '${conversationId}' has ${stored.count} events, not the ${options.expectedCount} this turn loaded.`,
      });
    for (const event of events) stored.recent.push(event);
    stored.count += events.length;
    stored.latest = events.at(-1)?.timestamp ?? stored.latest;
    const snapshot = options.snapshot;
    if (snapshot && snapshot.eventCount === stored.count) stored.snapshot = snapshot;
    stored.touched = this.now();
    this.conversations.set(conversationId, stored);
    if (this.packAfterMs > 0 && stored.recent.length > 0) {
      this.pending.setNewest(conversationId, true);
      this.scheduleSweep(this.packAfterMs);
    }
  }

  async remove(conversationId: string): Promise<void> {
    this.conversations.delete(conversationId);
    this.pending.delete(conversationId);
  }

  async listConversations(page: ConversationPageRequest): Promise<ConversationPage> {
    const limit = conversationPageLimit(page.limit);
    const after = page.after;
    const ids = [...this.conversations.keys()]
      .filter((id) => after === undefined || id > after)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const conversations = ids.slice(0, limit).map((conversationId) => {
      const stored = this.conversations.get(conversationId) as StoredConversation;
      return { conversationId, eventCount: stored.count, latestEventTime: stored.latest };
    });
    const last = conversations.at(-1);
    return ids.length > limit && last ? { conversations, next: last.conversationId } : { conversations };
  }

  conversationIds(): string[] {
    return [...this.conversations.keys()];
  }

  /** Packs the events of every conversation idle for packAfterMs now; returns how many it packed. */
  packIdleConversations(): number {
    const started = this.now();
    let block = new PackingBlock();
    let members: StoredConversation[] = [];
    let packed = 0;
    for (const conversationId of this.pending.keys()) {
      const stored = this.conversations.get(conversationId);
      // the ones after it had their turns later still
      if (stored && started - stored.touched < this.packAfterMs) break;
      this.pending.delete(conversationId);
      if (stored && stored.recent.length > 0) {
        block.add(stored.recent);
        members.push(stored);
        packed += 1;
      }
      if (block.bytes >= MAX_BLOCK_BYTES) {
        this.packBlock(block, members);
        block = new PackingBlock();
        members = [];
      }
      if (this.now() - started >= SWEEP_SLICE_MS) break;
    }
    this.packBlock(block, members);
    return packed;
  }

  private packBlock(block: PackingBlock, members: readonly StoredConversation[]): void {
    this.packer.pack(block).forEach((events, index) => {
      const stored = members[index] as StoredConversation;
      stored.packed.push(events);
      stored.recent = [];
    });
  }

  /** How many conversations have events waiting to be packed. */
  get pendingPacking(): number {
    return this.pending.size;
  }

  private scheduleSweep(delayMs: number): void {
    if (this.sweep) return;
    const run = () => {
      this.sweep = undefined;
      this.packIdleConversations();
      if (this.pending.size > 0) this.scheduleSweep(this.nextSweepDelay());
    };
    // unref'd: a pending sweep never keeps a process alive
    this.sweep = delayMs > 0 ? setTimeout(run, delayMs).unref() : setImmediate(run).unref();
  }

  /**
   * 0 when a conversation is already due (the last slice ran out of time), else until the oldest is,
   * at least SWEEP_EVERY_MS.
   */
  private nextSweepDelay(): number {
    const oldest = this.pending.oldest();
    if (!oldest) return this.packAfterMs;
    const touched = this.conversations.get(oldest[0])?.touched ?? 0;
    const due = touched + this.packAfterMs - this.now();
    return due <= 0 ? 0 : Math.min(this.packAfterMs, Math.max(due, SWEEP_EVERY_MS));
  }
}

function newConversation(now: number): StoredConversation {
  return { count: 0, snapshot: undefined, packed: [], recent: [], touched: now, latest: undefined };
}

function eventsOf(stored: StoredConversation): Event[] {
  return [...stored.packed.flatMap(unpack), ...stored.recent];
}

/** The events from position `start` on, unpacking only when they reach into the packed ones. */
function eventsFrom(stored: StoredConversation, start: number): Event[] {
  const recentStart = stored.count - stored.recent.length;
  if (start >= recentStart) return stored.recent.slice(start - recentStart);
  return eventsOf(stored).slice(start);
}
