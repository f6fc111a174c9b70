/**
 * The traces of the turns the inspector page ran, kept in memory (bounded: the latest conversations
 * and, in each, the latest turns), by the index of the turn's user event.
 */
import type { TraceSink } from '../../core/ports.js';
import type { TraceEvent } from '../../core/trace/trace-events.js';
import type { LiveTurns } from './views.js';

export const MAX_TRACED_CONVERSATIONS = 200;
export const MAX_TRACED_TURNS = 100;

export class LiveTraces {
  private readonly conversations = new Map<string, Map<number, readonly TraceEvent[]>>();

  /** A sink for one turn; `keep` files what it heard under the turn's user event. */
  recorder(): TraceSink & { readonly events: readonly TraceEvent[] } {
    const events: TraceEvent[] = [];
    return { events, record: (event) => void events.push(event) };
  }

  keep(conversationId: string, events: readonly TraceEvent[]): void {
    const received = events.find((event) => event.type === 'commands_received');
    if (received?.type !== 'commands_received') return;
    let turns = this.conversations.get(conversationId);
    // the most recently used conversation goes last; the first is the one to forget
    this.conversations.delete(conversationId);
    turns ??= new Map();
    this.conversations.set(conversationId, turns);
    turns.set(received.userEventIndex, events);
    if (turns.size > MAX_TRACED_TURNS) turns.delete(turns.keys().next().value as number);
    if (this.conversations.size > MAX_TRACED_CONVERSATIONS)
      this.conversations.delete(this.conversations.keys().next().value as string);
  }

  of(conversationId: string): LiveTurns {
    return this.conversations.get(conversationId) ?? new Map();
  }

  forget(conversationId: string): void {
    this.conversations.delete(conversationId);
  }
}
