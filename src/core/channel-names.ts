/**
 * The channel names of credentials.yml, as plain names: the channels Parley ships (their factories are in
 * src/channels/built-ins.ts, keyed by these names) and Rasa's other built-in channels, which Parley
 * recognises to refuse clearly. Validation (src/project) and the server (src/cli, src/channels) both read
 * them from here.
 */
export const SHIPPED_CHANNEL_NAMES = ['rest', 'callback', 'socketio'] as const;

export type ShippedChannelName = (typeof SHIPPED_CHANNEL_NAMES)[number];

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

/** Every channel name Parley knows: shipped, or one of Rasa's it does not ship. */
export function isKnownChannelName(name: string): boolean {
  return (SHIPPED_CHANNEL_NAMES as readonly string[]).includes(name) || RASA_CHANNELS_NOT_SHIPPED.has(name);
}
