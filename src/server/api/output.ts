import type { Request } from 'express';
import { botMessageOf } from '../../channels/bot-message.js';
import type { InputChannel } from '../../channels/channel.js';
import { CollectingOutputChannel } from '../../channels/collecting-output.js';
import type { CollectedMessage } from '../../channels/collecting-output.js';
import type { OutputChannel } from '../../channels/output-channel.js';
import type { BotUttered } from '../../core/events/types.js';
import { stringParam } from './params.js';

/** Rasa's `output_channel=latest`: the conversation's latest input channel. */
const LATEST = 'latest';

/**
 * Rasa's `_get_output_channel`: the channel named by `output_channel` (or the conversation's latest input
 * channel for `latest`) when it can send outside a request; otherwise a collector whose messages the
 * route returns in its body.
 */
export function outputChannelFor(
  request: Request,
  options: { readonly channels: readonly InputChannel[]; readonly latestInputChannel: string | null },
): OutputChannel {
  const requested = stringParam(request, 'output_channel');
  const name = requested === LATEST ? options.latestInputChannel : requested;
  const channel = name ? options.channels.find((candidate) => candidate.name === name) : undefined;
  return channel?.outputChannel?.() ?? new CollectingOutputChannel();
}

/** The messages a collecting output gathered, which Rasa returns as `messages`. */
export function collectedMessages(output: OutputChannel): readonly CollectedMessage[] | undefined {
  return output instanceof CollectingOutputChannel ? output.messages : undefined;
}

/**
 * Delivers bot messages to an output in the order they come, without holding up the turn; `done`
 * resolves once every message handed over so far has been sent.
 */
export function deliveryTo(output: OutputChannel, recipientId: string) {
  let delivery: Promise<void> = Promise.resolve();
  return {
    send(event: BotUttered): void {
      delivery = delivery.then(() => output.sendResponse(recipientId, botMessageOf(event)));
    },
    done(): Promise<void> {
      return delivery;
    },
  };
}
