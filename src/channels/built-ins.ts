import { CALLBACK_CHANNEL } from './callback.js';
import type { ChannelFactory } from './channel.js';
import { REST_CHANNEL } from './rest.js';
import { SOCKETIO_CHANNEL } from './socketio/socketio-channel.js';

/** The channels Parley ships, by credentials.yml key. */
export const BUILT_IN_CHANNELS: ReadonlyMap<string, ChannelFactory> = new Map(
  [REST_CHANNEL, CALLBACK_CHANNEL, SOCKETIO_CHANNEL].map((factory) => [factory.name, factory]),
);

/** Rasa's other built-in channel names: recognised, so a project using one gets a clear refusal. */
export const RASA_CHANNELS_NOT_SHIPPED: ReadonlySet<string> = new Set([
  'cmdline',
  'facebook',
  'slack',
  'telegram',
  'mattermost',
  'twilio',
  'twilio_voice',
  'rasa',
  'botframework',
  'rocketchat',
  'webexteams',
  'hangouts',
  'audiocodes',
  'vier_cvg',
  'jambonz',
  'twilio_media_streams',
  'browser_audio',
  'genesys',
  'studio_chat',
  'audiocodes_stream',
  'jambonz_stream',
]);
