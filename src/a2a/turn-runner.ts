/**
 * Runs the dialogue side of a task: one turn per message (bot messages streamed as `working` status
 * updates as they are produced), then the task state read from the dialogue, published as the final
 * status update with the bot's texts and a data part; terminal results also become an artifact.
 */
import { errorCodeOf, errorKindOf } from '../core/error-kinds.js';
import type { ErrorKind } from '../core/error-kinds.js';
import type { BotUttered } from '../core/events/types.js';
import type { CommandGenerator } from '../core/ports.js';
import type { Agent } from '../runtime/agent.js';
import type { Logger } from '../runtime/logger.js';
import { closingMessages, completedFlowOf, dialogueOutcome, publicSlots } from './dialogue-outcome.js';
import type { DialogueOutcome } from './dialogue-outcome.js';
import { prefillFromParts, prefillingGenerator } from './prefill.js';
import { INTERRUPTED_STATES, TERMINAL_STATES } from './tasks/model.js';
import type { A2aMessage, Part, Task } from './tasks/model.js';
import type { LiveTasks } from './tasks/live-tasks.js';
import { OPEN_ADMISSION } from './turn-admission.js';
import type { TurnAdmission } from './turn-admission.js';

export const A2A_INPUT_CHANNEL = 'a2a';

export interface TurnRunnerOptions {
  readonly agent: Agent;
  readonly commandGenerator: CommandGenerator;
  readonly settings: { readonly includeConversationRepair: boolean };
  /** the tasks being changed: the runner publishes their events there */
  readonly live: LiveTasks;
  readonly logger: Logger;
  readonly now: () => number;
  readonly newId: () => string;
  /** the server's door: turns counted in flight and in /metrics, refused while shutting down */
  readonly admission?: TurnAdmission;
}

/** what the handler knows when a turn starts */
export interface TurnStart {
  /** the HTTP request carrying the message (its log line gets the turn's fields) */
  readonly request?: object;
  /** the contextId was made up for this message, so its conversation holds nothing yet */
  readonly unseen?: boolean;
  /** the claim's StoredContext.keptAt: the conversation's event count, the previous turn being ours */
  readonly keptAt?: number | undefined;
}

export class TurnRunner {
  private readonly options: TurnRunnerOptions;
  private readonly slotNames: ReadonlySet<string>;
  private readonly admission: TurnAdmission;

  constructor(options: TurnRunnerOptions) {
    this.options = options;
    this.admission = options.admission ?? OPEN_ADMISSION;
    this.slotNames = new Set(options.agent.assistant.domain.slots.keys());
  }

  /** toISOString costs microseconds; several statuses are stamped within one millisecond under load */
  private stamped: { readonly at: number; readonly text: string } = { at: Number.NaN, text: '' };

  timestamp(): string {
    const at = this.options.now();
    if (at !== this.stamped.at) this.stamped = { at, text: new Date(at).toISOString() };
    return this.stamped.text;
  }

  /**
   * One turn for the message; the task ends interrupted or terminal, never left working. The whole
   * turn, up to its last published event, passes the admission: a shutdown waits until the answer
   * and the streams' final events are out.
   */
  async run(conversationId: string, message: A2aMessage, given: TurnStart = {}): Promise<void> {
    const task = this.options.live.get(message.taskId as string) as Task;
    this.options.live.publish(this.status(task, 'working', undefined));
    try {
      await this.admission.track(
        A2A_INPUT_CHANNEL,
        conversationId,
        () => this.turn(conversationId, task, message, given),
        given.request,
      );
    } catch (error) {
      this.options.logger.error(
        {
          conversationId,
          taskId: task.id,
          contextId: task.contextId,
          error: error instanceof Error ? error.message : String(error),
        },
        'a2a turn failed',
      );
      this.finish(task, turnFailure(error), []);
    }
  }

  private async turn(
    conversationId: string,
    task: Task,
    message: A2aMessage,
    { unseen, keptAt }: TurnStart,
  ): Promise<void> {
    const { agent, live } = this.options;
    const text = message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('\n');
    const prefill = prefillFromParts(message.parts, this.slotNames);
    const result = await agent.handleMessage({
      conversationId,
      text,
      inputChannel: A2A_INPUT_CHANNEL,
      ...(unseen ? { unseen } : {}),
      ...(keptAt !== undefined ? { keptAt } : {}),
      ...(message.metadata ? { metadata: message.metadata } : {}),
      ...(prefill.commands.length > 0
        ? { commandGenerator: prefillingGenerator(this.options.commandGenerator, prefill.commands) }
        : {}),
      onBotMessage: (bot) => {
        live.publish(this.status(task, 'working', this.reply(task, [bot], undefined)));
      },
    });
    const completedFlow = completedFlowOf(result.events, result.state);
    const { includeConversationRepair } = this.options.settings;
    const outcome = dialogueOutcome({
      ...(completedFlow ? { completedFlow } : {}),
      tracker: result.state,
      events: result.events,
      messages: result.messages,
      includeConversationRepair,
      warnings: prefill.warnings,
    });
    this.finish(task, outcome, closingMessages(result.events, outcome.state, includeConversationRepair));
  }

  /** Cancels the conversation's active flow (after tasks/cancel) with a cancel-flow command. */
  cancelFlow(task: Task, conversationId: string): Promise<void> {
    return this.admission.track(A2A_INPUT_CHANNEL, conversationId, async () => {
      const { agent } = this.options;
      const before = await agent.state(conversationId);
      const hasFlow = before.stack.some((frame) => frame.type === 'flow');
      const result = hasFlow
        ? await agent.handleMessage({
            conversationId,
            text: '',
            inputChannel: A2A_INPUT_CHANNEL,
            metadata: { a2a_cancel_task: task.id },
            commands: [{ command: 'cancel flow' }],
          })
        : { messages: [], state: before };
      const after = result.state;
      this.finish(
        task,
        {
          state: 'canceled',
          data: {
            state: 'canceled',
            active_flow: null,
            slots: publicSlots(after.slots),
            cancel: { by: 'orchestrator' },
          },
        },
        result.messages,
      );
    });
  }

  /** Publishes the outcome: an artifact when terminal, then the last status update of the turn. */
  finish(task: Task, outcome: DialogueOutcome, messages: readonly BotUttered[]): void {
    const { live } = this.options;
    const current = live.get(task.id);
    if (!current || TERMINAL_STATES.has(current.status.state)) return;
    const data = { ...outcome.data, state: outcome.state };
    const terminal = TERMINAL_STATES.has(outcome.state);
    if (terminal)
      live.publish({
        kind: 'artifact-update',
        taskId: task.id,
        contextId: task.contextId,
        artifact: {
          artifactId: this.options.newId(),
          name: 'dialogue_result',
          parts: [...textParts(messages), { kind: 'data', data }],
        },
        append: false,
        lastChunk: true,
      });
    const final = terminal || INTERRUPTED_STATES.has(outcome.state);
    live.publish({ ...this.status(task, outcome.state, this.reply(task, messages, data)), final });
  }

  private status(task: Task, state: 'working' | DialogueOutcome['state'], message: A2aMessage | undefined) {
    return {
      kind: 'status-update' as const,
      taskId: task.id,
      contextId: task.contextId,
      status: { state, timestamp: this.timestamp(), ...(message ? { message } : {}) },
      final: false,
    };
  }

  private reply(task: Task, messages: readonly BotUttered[], data: unknown): A2aMessage {
    return agentMessage({
      messageId: this.options.newId(),
      task,
      parts: [...textParts(messages), ...(data === undefined ? [] : [{ kind: 'data' as const, data }])],
    });
  }
}

export function agentMessage(input: { messageId: string; task: Task; parts: readonly Part[] }): A2aMessage {
  return {
    messageId: input.messageId,
    role: 'agent',
    parts: input.parts,
    contextId: input.task.contextId,
    taskId: input.task.id,
  };
}

/** The failed task of a turn that threw: what kind of failure it was, and its code when it has one. */
const TURN_FAILURES: Readonly<Record<ErrorKind, { readonly code: string; readonly message: string }>> = {
  bad_input: { code: 'bad_input', message: 'The message could not be handled as it was sent.' },
  conflict: { code: 'conflict', message: 'Another message changed the conversation first; send it again.' },
  unavailable: {
    code: 'unavailable',
    message:
      'The assistant could not handle the message now (a service it needs is down or busy); try again later.',
  },
  failure: { code: 'turn_failed', message: 'The assistant could not handle the message.' },
};

export function turnFailure(error: unknown): DialogueOutcome {
  const { code, message } = TURN_FAILURES[errorKindOf(error)];
  return failedOutcome(code, message, errorCodeOf(error));
}

/** `cause`: the error code behind the failure, when it has one */
export function failedOutcome(code: string, message: string, cause?: string): DialogueOutcome {
  const error = { code, message, ...(cause ? { cause } : {}) };
  return { state: 'failed', data: { state: 'failed', error } };
}

/** One text part per bot text; buttons are listed after their text for text-only clients. */
function textParts(messages: readonly BotUttered[]): Part[] {
  return messages.flatMap((message): Part[] => {
    const buttons = message.data.buttons ?? [];
    const listed = buttons.map((button, index) => `${index + 1}. ${button.title}`).join('\n');
    const text = [message.text ?? '', listed].filter((piece) => piece !== '').join('\n');
    return text === '' ? [] : [{ kind: 'text', text }];
  });
}
