/**
 * One JSON-RPC call, once its method and wire version are known: params translated by the wire's
 * codec, the semantic handler called, the result translated back. Streaming calls answer with SSE.
 */
import type { ServerResponse } from 'node:http';
import { A2aError } from '../a2a-error.js';
import type { PushService } from '../push/push-service.js';
import type { SemanticHandler, SendParams } from '../semantic-handler.js';
import { INTERRUPTED_STATES, TERMINAL_STATES, withHistory } from '../tasks/model.js';
import type { TaskEvent } from '../tasks/model.js';
import type { MethodRoute } from './methods.js';
import { pushOperation } from './push-operations.js';
import { SseStream } from './sse.js';
import { V03_CODEC } from './v03.js';
import { V1_CODEC, listRequest } from './v1.js';
import type { SendRequest, WireCodec } from './wire.js';

export interface CallContext {
  /** the HTTP request of the call: the turn it runs logs with its id */
  readonly request: object;
  readonly handler: SemanticHandler;
  /** the calling agent (caller.ts): tasks and push configs are its own */
  readonly caller: string;
  readonly id: unknown;
  readonly params: unknown;
  readonly response: ServerResponse;
  readonly keepAliveMs: number;
  /** absent when push_notifications_enabled is off: the push methods answer -32003 */
  readonly push?: PushService;
}

/** The JSON-RPC result, or undefined when the answer was streamed. */
export async function runOperation(
  route: MethodRoute,
  call: CallContext,
): Promise<{ result: unknown } | undefined> {
  const codec = route.version === '1.0' ? V1_CODEC : V03_CODEC;
  const { handler, params, caller } = call;
  switch (route.operation) {
    case 'send':
      return { result: await send(codec, call) };
    case 'stream':
      await stream(codec, call);
      return undefined;
    case 'get': {
      const query = codec.taskQuery(params);
      return { result: codec.task(await handler.getTask(query.id, caller, query.historyLength)) };
    }
    case 'list': {
      if (codec.version !== '1.0') throw notSupported('ListTasks is a v1.0 method.');
      const listed = await handler.listTasks({ ...listRequest(params), caller });
      return {
        result: {
          tasks: listed.tasks.map((task) => codec.task(task)),
          nextPageToken: listed.nextPageToken,
          pageSize: listRequest(params).pageSize,
          totalSize: listed.totalSize,
        },
      };
    }
    case 'cancel':
      return { result: codec.task(await handler.cancelTask(codec.taskId(params), caller)) };
    case 'subscribe':
      await subscribe(codec, call);
      return undefined;
    case 'pushSet':
    case 'pushGet':
    case 'pushList':
    case 'pushDelete':
      return { result: await pushOperation(route.operation, codec.version, call) };
    case 'extendedCard':
      throw codec.version === '1.0'
        ? notSupported('This agent has no extended AgentCard.')
        : new A2aError({
            reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
            message: 'This agent has no authenticated extended AgentCard.',
          });
  }
}

function notSupported(message: string): A2aError {
  return new A2aError({ reason: 'UNSUPPORTED_OPERATION', message });
}

async function send(codec: WireCodec, call: CallContext): Promise<unknown> {
  const request = codec.sendRequest(call.params);
  const sent = await call.handler.sendMessage(await sendParams(request, call));
  const task = request.blocking ? await sent.done : (call.handler.current(sent.task.id) ?? sent.task);
  return codec.sendResult(withHistory(task, request.historyLength));
}

/**
 * The handler's params for a send: a push config given with the message is checked first (a refused
 * one refuses the message before any turn runs) and attached to the task once it has its id.
 */
async function sendParams(request: SendRequest, call: CallContext): Promise<SendParams> {
  const params = { message: request.message, caller: call.caller, request: call.request };
  if (!request.pushConfig) return params;
  const push = call.push;
  if (!push)
    throw new A2aError({
      reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
      message: 'This agent does not send push notifications (push_notifications_enabled is off).',
    });
  const checked = await push.check(request.pushConfig);
  return { ...params, beforeRun: async (taskId) => void (await push.attach(taskId, checked, call.caller)) };
}

/** the last event of a stream: a terminal or interrupted state */
function isFinal(event: TaskEvent): boolean {
  if (event.kind !== 'status-update') return false;
  return TERMINAL_STATES.has(event.status.state) || INTERRUPTED_STATES.has(event.status.state);
}

async function stream(codec: WireCodec, call: CallContext): Promise<void> {
  const request = codec.sendRequest(call.params);
  // events published before the stream opens (the task itself) wait here
  const early: TaskEvent[] = [];
  const opened: { sse?: SseStream; stored?: Promise<unknown> } = {};
  const deliver = (event: TaskEvent): void => {
    if (!opened.sse) early.push(event);
    else forwardWhenStored(opened.sse, codec, event, opened.stored);
  };
  const sent = await call.handler.sendMessage(await sendParams(request, call), deliver);
  const sse = new SseStream({ response: call.response, id: call.id, keepAliveMs: call.keepAliveMs });
  opened.sse = sse;
  opened.stored = sent.done.catch(() => undefined);
  sse.whenClosed(sent.unsubscribe);
  if (sent.replayed) {
    sse.send(codec.event({ kind: 'task', task: sent.task }));
    sse.end();
    return;
  }
  for (const event of early) forwardWhenStored(sse, codec, event, opened.stored);
}

/**
 * The final event goes out once the task's settled state is stored (`stored`: the send's answer), so
 * that a caller who reads the task right after, through any replica, finds what the stream said.
 */
function forwardWhenStored(
  sse: SseStream,
  codec: WireCodec,
  event: TaskEvent,
  stored: Promise<unknown> | undefined,
): void {
  if (!isFinal(event) || !stored) {
    forward(sse, codec, event);
    return;
  }
  const sent = stored.then(() => forward(sse, codec, event));
  sse.holdForFinalEvent(sent);
}

async function subscribe(codec: WireCodec, call: CallContext): Promise<void> {
  const id = codec.taskId(call.params);
  const opened: { sse?: SseStream } = {};
  const early: TaskEvent[] = [];
  const subscription = await call.handler.subscribe(id, call.caller, (event) => {
    // the stream opens with the task; after that, a message continuing it (a new snapshot with the
    // message in its history) is told by the status updates that follow, not by another snapshot
    if (event.kind === 'task') return;
    if (!opened.sse) early.push(event);
    else forward(opened.sse, codec, event);
  });
  const sse = new SseStream({ response: call.response, id: call.id, keepAliveMs: call.keepAliveMs });
  opened.sse = sse;
  sse.whenClosed(subscription.unsubscribe);
  // a subscription starts with the task as it is now (spec/a2a.md §2.10)
  sse.send(codec.event({ kind: 'task', task: subscription.task }));
  for (const event of early) forward(sse, codec, event);
}

function forward(sse: SseStream, codec: WireCodec, event: TaskEvent): void {
  sse.send(codec.event(event));
  if (isFinal(event)) sse.end();
}
