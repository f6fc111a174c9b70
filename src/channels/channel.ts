import type { Router } from 'express';
import type { IncomingMessage, Server } from 'node:http';
import type { TraceSink } from '../core/ports.js';
import type { Logger } from '../runtime/logger.js';
import type { CollectedMessage, CollectingOutputChannel } from './collecting-output.js';
import type { JsonAnswer } from './json-answer.js';
import type { OutputChannel } from './output-channel.js';

/** A user message as a channel received it (Rasa's `UserMessage`). */
export interface UserMessage {
  readonly senderId: string;
  readonly text: string;
  /** the name recorded as the event's `input_channel` */
  readonly inputChannel: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** receives the bot's messages of this turn */
  readonly output: OutputChannel;
  /** hears this turn's trace (the inspector's turns) */
  readonly trace?: TraceSink;
  /** the HTTP request that carried the message: the turn's log lines then carry its request id */
  readonly request?: object;
}

/** What the server gives a channel: one way to hand over a message, and a logger. */
export interface ChannelContext {
  /** runs the turn; the bot's messages reach `message.output` as they are produced */
  handleMessage(message: UserMessage): Promise<void>;
  /** an output that collects messages in Rasa's REST shape (and can see each one as it arrives) */
  collectingOutput(options?: {
    readonly name?: string;
    readonly onMessage?: (message: CollectedMessage) => void | Promise<void>;
  }): CollectingOutputChannel;
  readonly logger: Logger;
}

/**
 * An input channel: a router mounted at `/webhooks/<urlPrefix>/`, optionally attached to the HTTP
 * server itself (socket.io), optionally able to push messages outside a request (`outputChannel`).
 */
export interface InputChannel {
  /** the credentials.yml key */
  readonly name: string;
  /** the mount segment under /webhooks/ (default: the name) */
  readonly urlPrefix?: string;
  router(context: ChannelContext): Router;
  /**
   * POST endpoints that read a JSON body and answer JSON. The server serves them without Express when
   * the request is plain (see `src/server/direct-routes.ts`); the channel's router must serve the same
   * paths for the other requests (a compressed body, a query string).
   */
  jsonPostRoutes?(context: ChannelContext): readonly JsonPostRoute[];
  /** for channels that need the HTTP server (socket.io); called once it exists */
  attach?(server: Server, context: ChannelContext): void;
  /** lets the HTTP API send a conversation's bot messages through this channel */
  outputChannel?(): OutputChannel | undefined;
  close?(): Promise<void>;
}

/** A POST endpoint of a channel taking a parsed JSON body and answering JSON. */
export interface JsonPostRoute {
  /** under the channel's mount path, e.g. `/webhook` */
  readonly path: string;
  answer(body: unknown, request: IncomingMessage): Promise<JsonAnswer>;
}

/** Builds a channel from its credentials.yml block (which may be empty). */
export interface ChannelFactory {
  readonly name: string;
  create(credentials: Readonly<Record<string, unknown>>, options: { readonly logger: Logger }): InputChannel;
}

/** Declares a custom channel for a `channels/` module or a credentials.yml module path. */
export function defineChannel(factory: ChannelFactory): ChannelFactory {
  return factory;
}
