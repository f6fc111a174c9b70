// Parley's public API for assistant code: custom actions and custom channels.
export { defineAction } from './actions/custom/in-process.js';
export type { ActionContext, ActionResult, InProcessAction } from './actions/custom/in-process.js';
export { defineChannel } from './channels/channel.js';
export type { ChannelContext, ChannelFactory, InputChannel, UserMessage } from './channels/channel.js';
export { OutputChannel } from './channels/output-channel.js';
export { CollectingOutputChannel } from './channels/collecting-output.js';
export type { CollectedMessage } from './channels/collecting-output.js';
export type { BotMessage, Button } from './channels/bot-message.js';
export type { TraceSink } from './core/ports.js';
export type { CommandSource, CommandCleanup, FlowPosition, TraceEvent } from './core/trace/trace-events.js';
export { traceEvents } from './core/trace/event-trace.js';
