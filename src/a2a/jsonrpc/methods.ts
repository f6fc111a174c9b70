/**
 * The JSON-RPC method names of both wire versions (spec/a2a.md §2.5), routed by name: slash-style
 * names are v0.3, PascalCase names v1.0.
 */
import type { WireVersion } from './errors.js';

export type Operation =
  | 'send'
  | 'stream'
  | 'get'
  | 'list'
  | 'cancel'
  | 'subscribe'
  | 'pushSet'
  | 'pushGet'
  | 'pushList'
  | 'pushDelete'
  | 'extendedCard';

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
  'tasks/pushNotificationConfig/set': 'pushSet',
  'tasks/pushNotificationConfig/get': 'pushGet',
  'tasks/pushNotificationConfig/list': 'pushList',
  'tasks/pushNotificationConfig/delete': 'pushDelete',
  'agent/getAuthenticatedExtendedCard': 'extendedCard',
};

const V1: Record<string, Operation> = {
  SendMessage: 'send',
  SendStreamingMessage: 'stream',
  GetTask: 'get',
  ListTasks: 'list',
  CancelTask: 'cancel',
  SubscribeToTask: 'subscribe',
  CreateTaskPushNotificationConfig: 'pushSet',
  GetTaskPushNotificationConfig: 'pushGet',
  ListTaskPushNotificationConfigs: 'pushList',
  DeleteTaskPushNotificationConfig: 'pushDelete',
  GetExtendedAgentCard: 'extendedCard',
};

export function routeOf(method: string): MethodRoute | undefined {
  if (Object.hasOwn(V03, method)) return { version: '0.3', operation: V03[method] as Operation };
  if (Object.hasOwn(V1, method)) return { version: '1.0', operation: V1[method] as Operation };
  return undefined;
}
