// Parley's public API for assistant code: custom actions and custom channels.
export { defineAction } from './actions/custom/in-process.js';
export type { ActionContext, ActionResult, InProcessAction } from './actions/custom/in-process.js';
export { defineChannel } from './channels/channel.js';
export type { ChannelContext, ChannelFactory, InputChannel, UserMessage } from './channels/channel.js';
export { OutputChannel } from './channels/output-channel.js';
export { CollectingOutputChannel } from './channels/collecting-output.js';
export type { CollectedMessage } from './channels/collecting-output.js';
export type { BotMessage, Button } from './channels/bot-message.js';
