import { AppError } from '../core/errors.js';
import { channelConversationIdProblem } from '../core/text/identifiers.js';
import type { Agent } from '../runtime/agent.js';
import type { Logger } from '../runtime/logger.js';
import type { ChannelContext, UserMessage } from '../channels/channel.js';
import { botMessageOf } from '../channels/bot-message.js';
import { CollectingOutputChannel } from '../channels/collecting-output.js';
import type { CollectedMessage } from '../channels/collecting-output.js';
import type { RequestTurn, RequestTurns } from './request-log.js';

/** Observes turns for metrics; the server passes a no-op when metrics are off. */
export interface TurnObserver {
  turnStarted(channel: string, conversationId: string): void;
  turnFinished(channel: string, seconds: number, outcome: 'ok' | 'error'): void;
}

/**
 * The one door from every channel to the agent: runs a channel's message as a turn, delivers the bot's
 * messages to the channel's output in order as they are produced, counts turns in flight, and refuses
 * new ones once the server is shutting down so that a graceful stop can wait for the rest.
 */
export class TurnGate implements ChannelContext {
  readonly logger: Logger;
  private readonly agent: Agent;
  private readonly observer: TurnObserver | undefined;
  private inFlight = 0;
  private closing = false;
  private drained: (() => void) | undefined;
  private readonly drainedCallbacks: (() => void | Promise<void>)[] = [];

  private readonly requests: RequestTurns | undefined;

  constructor(options: {
    agent: Agent;
    logger: Logger;
    observer?: TurnObserver;
    /**
     * links a turn to the HTTP request that ran it (RequestLog): its lines carry the request's id and
     * the finished turn's fields go on the request's line; without one the gate logs `turn.finished`
     */
    requests?: RequestTurns;
  }) {
    this.agent = options.agent;
    this.logger = options.logger;
    this.observer = options.observer;
    this.requests = options.requests;
  }

  get turnsInFlight(): number {
    return this.inFlight;
  }

  /** true once a shutdown began: health checks report it so load balancers stop sending traffic */
  get isClosing(): boolean {
    return this.closing;
  }

  async handleMessage(message: UserMessage): Promise<void> {
    refuseUnusableSender(message.senderId);
    await this.track(
      message.inputChannel,
      message.senderId,
      async () => {
        let delivery: Promise<void> = Promise.resolve();
        await this.agent.handleMessage({
          conversationId: message.senderId,
          text: message.text,
          inputChannel: message.inputChannel,
          ...(message.metadata ? { metadata: message.metadata } : {}),
          // a plain member, undefined for every turn but the inspector's (no conditional spread on this path)
          trace: message.trace,
          onBotMessage: (event) => {
            delivery = delivery.then(() =>
              message.output.sendResponse(message.senderId, botMessageOf(event)),
            );
          },
        });
        await delivery;
      },
      message.request,
    );
  }

  /**
   * Runs a turn that an edge drives itself (A2A calls the agent with its own options): counted in
   * flight and in the metrics, logged, and refused once the server is shutting down. `request`: the
   * HTTP request that carried the turn, whose id its log lines then carry.
   */
  async track<T>(
    channel: string,
    conversationId: string,
    turn: () => Promise<T>,
    request?: object,
  ): Promise<T> {
    if (this.closing) throw new AppError({ code: 'SHUTTING_DOWN', message: 'The server is shutting down.' });
    const requestTurn = this.requests?.begin(request, conversationId);
    this.inFlight += 1;
    this.observer?.turnStarted(channel, conversationId);
    const started = performance.now();
    let outcome: 'ok' | 'error' = 'error';
    let failure: unknown;
    try {
      const result = await turn();
      outcome = 'ok';
      return result;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      this.observer?.turnFinished(channel, seconds, outcome);
      this.logTurn({ channel, conversationId, seconds, failure, requestTurn });
      requestTurn?.end();
      this.inFlight -= 1;
      if (this.inFlight === 0) this.drained?.();
    }
  }

  /** Runs once a shutdown's running turns are done, before connections close (A2A ends its streams). */
  onDrained(callback: () => void | Promise<void>): void {
    this.drainedCallbacks.push(callback);
  }

  collectingOutput(
    options: {
      readonly name?: string;
      readonly onMessage?: (message: CollectedMessage) => void | Promise<void>;
    } = {},
  ): CollectingOutputChannel {
    return new CollectingOutputChannel(options);
  }

  /**
   * One line per turn: a turn that an HTTP request ran goes on that request's line (`turnMs`), any
   * other is logged as `turn.finished`; a failure is always a line of its own, at error level.
   */
  private logTurn(turn: {
    channel: string;
    conversationId: string;
    seconds: number;
    failure: unknown;
    requestTurn: RequestTurn | undefined;
  }): void {
    const { channel, conversationId, failure } = turn;
    const durationMs = Math.round(turn.seconds * 10_000) / 10;
    const fields = { conversationId, channel, durationMs };
    if (failure === undefined) {
      if (!turn.requestTurn?.annotate({ conversationId, channel, turnMs: durationMs, outcome: 'ok' }))
        this.logger.info({ ...fields, outcome: 'ok' }, 'turn.finished');
    } else
      this.logger.error(
        {
          ...fields,
          outcome: 'error',
          code: (failure as { code?: unknown }).code ?? 'INTERNAL',
          error: failure instanceof Error ? failure.message : String(failure),
        },
        'turn.failed',
      );
  }

  /** Refuses new turns and resolves once the running ones are done. */
  async drain(): Promise<void> {
    this.closing = true;
    if (this.inFlight > 0)
      await new Promise<void>((resolve) => {
        this.drained = resolve;
      });
    for (const callback of this.drainedCallbacks.splice(0)) await callback();
  }
}

/**
 * Built-in channels check their sender ids themselves (a 400 naming the field); this catches a custom
 * channel's: no channel may address an A2A conversation or store an id that cannot be shown as it is.
 */
function refuseUnusableSender(senderId: string): void {
  const problem = channelConversationIdProblem(senderId);
  if (problem) throw new AppError({ code: 'CONVERSATION_ID_INVALID', message: `The sender id ${problem}.` });
}
