/**
 * The JSON-RPC method names of both wire versions (spec/a2a.md §2.5), routed by name: slash-style
 * names are v0.3, PascalCase names v1.0.
 */
import type { WireVersion } from './errors.js';

export type Operation = 'send' | 'stream' | 'get' | 'list' | 'cancel' | 'subscribe' | 'push' | 'extendedCard';

export interface MethodRoute {
  readonly version: WireVersion;
  readonly operation: Operation;
}

const V03: Record<string, Operation> = {
  'message/send': 'send',
  'message/stream': 'stream',
  'tasks/get': 'get',
  'tasks/cancel': 'cancel',
  'tasks/resubscribe': 'subscribe',
  'tasks/pushNotificationConfig/set': 'push',
  'tasks/pushNotificationConfig/get': 'push',
  'tasks/pushNotificationConfig/list': 'push',
  'tasks/pushNotificationConfig/delete': 'push',
  'agent/getAuthenticatedExtendedCard': 'extendedCard',
};

const V1: Record<string, Operation> = {
  SendMessage: 'send',
  SendStreamingMessage: 'stream',
  GetTask: 'get',
  ListTasks: 'list',
  CancelTask: 'cancel',
  SubscribeToTask: 'subscribe',
  CreateTaskPushNotificationConfig: 'push',
  GetTaskPushNotificationConfig: 'push',
  ListTaskPushNotificationConfigs: 'push',
  DeleteTaskPushNotificationConfig: 'push',
  GetExtendedAgentCard: 'extendedCard',
};

export function routeOf(method: string): MethodRoute | undefined {
  if (Object.hasOwn(V03, method)) return { version: '0.3', operation: V03[method] as Operation };
  if (Object.hasOwn(V1, method)) return { version: '1.0', operation: V1[method] as Operation };
  return undefined;
}
