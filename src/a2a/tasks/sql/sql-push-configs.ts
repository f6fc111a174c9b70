/**
 * Push notification configs in a2a_push_configs, with the memory store's rules (memory/push-registry.ts):
 * a config id is its owner's; a new config beyond a limit (per task, per caller, in all) is refused. The
 * limits are checked and the config added under the dialect's write lock, so that two processes adding
 * configs at once cannot both take the last place.
 */
import type { PushConfig } from '../../push/push-config.js';
import type { OwnedPushConfig, PushLimits, PushPutOutcome } from '../task-store.js';
import { rows, run } from './sql-runner.js';
import type { SqlScript } from './sql-runner.js';
import { decodeOwner, encodeOwner } from './task-rows.js';
import { PUSH_SQL } from './task-sql.js';
import type { TaskWrites } from './task-writes.js';

interface PushCounts {
  readonly per_task: number | string;
  readonly per_caller: number | string;
  readonly total: number | string;
}

/** Adds or replaces (same id, same owner) a config; a script for one transaction. */
export function* putPushConfigIn(
  writes: TaskWrites,
  request: { readonly config: PushConfig; readonly owner: string; readonly limits: PushLimits },
): SqlScript<PushPutOutcome> {
  const { config, limits } = request;
  const owner = encodeOwner(request.owner);
  yield* writes.lockPushConfigs();
  const [existing] = yield* rows<{ owner: string }>(PUSH_SQL.owner, [config.taskId, config.id]);
  if (existing) {
    if (existing.owner !== owner) return { kind: 'taken' };
    yield* run(PUSH_SQL.replace, [JSON.stringify(config), config.taskId, config.id]);
    return { kind: 'stored' };
  }
  const [counts] = yield* rows<PushCounts>(PUSH_SQL.counts, [config.taskId, owner]);
  if (Number(counts?.per_task) >= limits.perTask)
    return { kind: 'full', limit: 'perTask', max: limits.perTask };
  if (Number(counts?.per_caller) >= limits.perCaller)
    return { kind: 'full', limit: 'perCaller', max: limits.perCaller };
  if (Number(counts?.total) >= limits.total) return { kind: 'full', limit: 'total', max: limits.total };
  yield* run(PUSH_SQL.insert, [config.taskId, config.id, owner, JSON.stringify(config)]);
  return { kind: 'stored' };
}

export function* pushConfigsOf(taskId: string): SqlScript<OwnedPushConfig[]> {
  const configs = yield* rows<{ owner: string; data: string }>(PUSH_SQL.list, [taskId]);
  return configs.map((row) => ({
    config: JSON.parse(row.data) as PushConfig,
    owner: decodeOwner(row.owner),
  }));
}
