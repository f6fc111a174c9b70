/**
 * The trace of a finished turn, recorded only when a sink listens: the commands the user message came
 * with and what cleaning did to them, then what each event of the turn changed (core/trace).
 */
import { parseCommand } from '../core/commands/index.js';
import type { Command } from '../core/commands/types.js';
import type { EngineContext } from '../core/engine-context.js';
import { applyEvent } from '../core/events/apply-event.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import type { Event } from '../core/events/types.js';
import type { TraceSink } from '../core/ports.js';
import { explainCleanUp } from '../core/trace/cleanup-notes.js';
import { stackPosition, traceEvents } from '../core/trace/event-trace.js';
import type { Logger } from './logger.js';
import type { TurnResult } from './open-turn.js';

export interface FinishedTurn {
  /** the state the turn loaded, before any of its events (a session start's included) */
  readonly opened: TrackerState;
  readonly result: TurnResult;
  readonly given: boolean;
  readonly engine: EngineContext;
  /** the conversation's whole log, needed only when the turn has a `rewind` or `undo` */
  readonly log?: readonly Event[];
}

export function recordStart(sink: TraceSink, opened: TrackerState, text: string): void {
  sink.record({ type: 'turn_started', conversationId: opened.senderId, text, eventCount: opened.eventCount });
}

/** Commands handed in with the message (a command oracle, the HTTP API): their source is the caller. */
export function recordGiven(sink: TraceSink, opened: TrackerState, commands: readonly Command[]): void {
  sink.record({
    type: 'commands_understood',
    conversationId: opened.senderId,
    source: { kind: 'given' },
    commands,
  });
}

export function recordTurn(sink: TraceSink, turn: FinishedTurn): void {
  const record = (event: Parameters<TraceSink['record']>[0]): void => sink.record(event);
  const { events } = turn.result;
  const userIndex = events.findIndex((event) => event.event === 'user');
  const { log } = turn;
  const beforeUser = traceEvents(
    turn.opened,
    userIndex < 0 ? events : events.slice(0, userIndex),
    record,
    log,
  );
  const user = events[userIndex];
  if (user?.event === 'user') {
    recordCommands(sink, user, applyEvent(beforeUser, user), turn);
    traceEvents(beforeUser, events.slice(userIndex), record, log);
  }
  sink.record({
    type: 'turn_ended',
    conversationId: turn.opened.senderId,
    eventCount: turn.result.eventCount,
    position: stackPosition(turn.result.state.stack),
    stack: turn.result.state.stack,
    slots: turn.result.state.slots,
  });
}

function recordCommands(
  sink: TraceSink,
  user: Extract<Event, { event: 'user' }>,
  afterUser: TrackerState,
  turn: FinishedTurn,
): void {
  const conversationId = turn.opened.senderId;
  const commands = commandsOf(user);
  const userEventIndex = afterUser.eventCount - 1;
  sink.record({ type: 'commands_received', conversationId, userEventIndex, commands, given: turn.given });
  const { changes, applied } = explainCleanUp(commands, afterUser, turn.engine);
  sink.record({ type: 'commands_cleaned', conversationId, changes, applied });
}

/** The commands a stored user event carries (its parse data's, as Rasa keeps them); unreadable ones left out. */
export function commandsOf(user: Extract<Event, { event: 'user' }>): Command[] {
  return (user.parse_data.commands ?? []).flatMap((raw) => {
    const command = parseCommand(raw);
    return command ? [command] : [];
  });
}

/** A sink whose failures are logged, never the turn's: a consumer's bug must not fail a conversation. */
export function shieldedSink(sink: TraceSink, logger: Logger, conversationId: string): TraceSink {
  return {
    record: (event) => {
      try {
        sink.record(event);
      } catch (error) {
        logger.warn(
          {
            conversationId,
            trace: event.type,
            error: error instanceof Error ? error.message : String(error),
          },
          'trace sink failed: the turn goes on without it',
        );
      }
    },
  };
}
