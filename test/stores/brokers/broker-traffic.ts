/** The traffic the broker suites publish: bot events numbered per conversation, and how they arrived. */
import type { Event } from '../../../src/core/events/types.js';
import type { BufferedEventBroker } from '../../../src/stores/brokers/buffered-event-broker.js';

/** a bot event whose text `c<conversation>-<index>` says where it belongs */
export const bot = (conversation: number, index: number): Event =>
  ({ event: 'bot', timestamp: index, text: `c${conversation}-${index}` }) as Event;

/**
 * Publishes `count` more events round-robin over `conversations` conversations (`conv-<n>`), numbered
 * on from the previous call, yielding to the event loop every 20 so that batches go out meanwhile.
 */
export function interleavedPublisher(
  broker: BufferedEventBroker,
  conversations: number,
): (count: number) => Promise<void> {
  let index = 0;
  return async (count) => {
    for (let n = 0; n < count; n += 1, index += 1) {
      broker.publish(`conv-${index % conversations}`, [bot(index % conversations, index)]);
      if (n % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };
}

/** The texts received per conversation, in arrival order, duplicates (at-least-once) removed. */
export function perConversation(messages: readonly Record<string, unknown>[]): Map<string, string[]> {
  const seen = new Set<string>();
  const result = new Map<string, string[]>();
  for (const message of messages) {
    const text = String(message['text']);
    if (seen.has(text)) continue;
    seen.add(text);
    const sender = String(message['sender_id']);
    result.set(sender, [...(result.get(sender) ?? []), text]);
  }
  return result;
}

/** the numbers of a conversation's texts (`c0-17` → 17), in arrival order */
export const numbersOf = (texts: readonly string[]): number[] =>
  texts.map((text) => Number(text.split('-')[1]));
