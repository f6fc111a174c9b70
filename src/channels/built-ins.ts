import { SHIPPED_CHANNEL_NAMES } from '../core/channel-names.js';
import type { ShippedChannelName } from '../core/channel-names.js';
import { CALLBACK_CHANNEL } from './callback.js';
import type { ChannelFactory } from './channel.js';
import { REST_CHANNEL } from './rest.js';
import { SOCKETIO_CHANNEL } from './socketio/socketio-channel.js';

export { RASA_CHANNELS_NOT_SHIPPED } from '../core/channel-names.js';

/** The factory of each channel Parley ships: one for every name of SHIPPED_CHANNEL_NAMES, no other. */
const FACTORIES: Readonly<Record<ShippedChannelName, ChannelFactory>> = {
  rest: REST_CHANNEL,
  callback: CALLBACK_CHANNEL,
  socketio: SOCKETIO_CHANNEL,
};

/** The channels Parley ships, by credentials.yml key. */
export const BUILT_IN_CHANNELS: ReadonlyMap<string, ChannelFactory> = new Map(
  SHIPPED_CHANNEL_NAMES.map((name) => [name, FACTORIES[name]]),
);
