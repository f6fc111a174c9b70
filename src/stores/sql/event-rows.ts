/**
 * Events as rows of Rasa's `events` table and back. A row is written the way Rasa's SQLTrackerStore
 * writes it (type_name, intent_name of user messages, action_name = the event's `name`, the whole
 * event as JSON in `data`), plus `seq`, the event's position in its conversation.
 */
import { AppError } from '../../core/errors.js';
import { parseEvent } from '../../core/events/parse-event.js';
import type { Event } from '../../core/events/types.js';

export interface EventRow {
  readonly sender_id: string;
  readonly seq: number;
  readonly type_name: string;
  readonly timestamp: number;
  readonly intent_name: string | null;
  readonly action_name: string | null;
  readonly data: string;
}

/** An event row's values in the order of EVENT_COLUMNS, for the statements that insert rows. */
export function eventRowValues(row: EventRow): (string | number | null)[] {
  return [row.sender_id, row.seq, row.type_name, row.timestamp, row.intent_name, row.action_name, row.data];
}

/** The columns eventRowValues gives, as an SQL column list. */
export const EVENT_COLUMNS = '(sender_id, seq, type_name, timestamp, intent_name, action_name, data)';

/** A row of the `tracker_snapshots` table. */
export interface SnapshotRow {
  readonly sender_id: string;
  readonly event_count: number;
  readonly data: string;
  readonly updated: number;
}

export interface StoredEventRow {
  readonly seq: number | string;
  readonly data: string | null;
  readonly timestamp?: number | string | null;
}

export function eventRow(conversationId: string, seq: number, event: Event): EventRow {
  const name = 'name' in event && typeof event.name === 'string' ? event.name : null;
  const intent = event.event === 'user' ? (event.parse_data.intent?.name ?? null) : null;
  return {
    sender_id: conversationId,
    seq,
    type_name: event.event,
    timestamp: event.timestamp,
    intent_name: intent,
    action_name: name,
    data: JSON.stringify(event),
  };
}

/**
 * The events of rows read in `seq` order starting at `firstSeq`. A gap in the numbering or an event
 * that does not parse is STORE_CORRUPT: loading a conversation with a hole in it would silently
 * change what the assistant remembers.
 */
export function eventsOfRows(
  conversationId: string,
  rows: readonly StoredEventRow[],
  firstSeq: number,
): Event[] {
  return rows.map((row, index) => {
    const seq = Number(row.seq);
    if (seq !== firstSeq + index)
      throw corrupt(conversationId, seq, `expected event #${firstSeq + index} but found #${seq}`);
    let raw: unknown;
    try {
      raw = JSON.parse(row.data ?? 'null');
    } catch {
      throw corrupt(conversationId, seq, 'its data is not JSON');
    }
    const parsed = parseEvent(raw, Number(row.timestamp ?? 0));
    if (!parsed.ok) throw corrupt(conversationId, seq, parsed.error);
    return parsed.event;
  });
}

function corrupt(conversationId: string, seq: number, reason: string): AppError {
  return new AppError({
    code: 'STORE_CORRUPT',
    message: `Event #${seq} of conversation '${conversationId}' cannot be read: ${reason}.`,
    details: { conversationId, seq, reason },
  });
}
