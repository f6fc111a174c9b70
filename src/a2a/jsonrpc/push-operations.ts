/** The push notification config methods of both versions (spec/a2a.md §2.5), over the push service. */
import { A2aError } from '../a2a-error.js';
import { configJson, readConfigRef, readListTaskId, readSetParams } from '../push/push-config.js';
import type { WireVersion } from './errors.js';
import type { Operation } from './methods.js';
import type { CallContext } from './operations.js';
import { text } from './params.js';

export async function pushOperation(
  operation: Extract<Operation, 'pushSet' | 'pushGet' | 'pushList' | 'pushDelete'>,
  version: WireVersion,
  call: CallContext,
): Promise<unknown> {
  const push = call.push;
  if (!push)
    throw new A2aError({
      reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
      message: 'This agent does not send push notifications (push_notifications_enabled is off).',
    });
  switch (operation) {
    case 'pushSet':
      return configJson(await push.set(readSetParams(call.params, version), call.caller), version);
    case 'pushGet': {
      const ref = readConfigRef(call.params, version);
      return configJson(await push.get(ref.taskId, ref.configId, call.caller), version);
    }
    case 'pushList': {
      const configs = (await push.list(readListTaskId(call.params, version), call.caller)).map((config) =>
        configJson(config, version),
      );
      // v1.0 pages (one page holds them all: a task has few configs); v0.3 answers the list itself
      return version === '1.0' ? { configs, nextPageToken: '' } : configs;
    }
    case 'pushDelete': {
      const ref = readConfigRef(call.params, version);
      const configId = text(ref.configId, version === '1.0' ? 'id' : 'pushNotificationConfigId');
      await push.delete(ref.taskId, configId, call.caller);
      return null;
    }
  }
}
