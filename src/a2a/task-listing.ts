/** ListTasks: a caller's own tasks, a page at a time, newest status first. */
import { invalidParams } from './a2a-error.js';
import { withHistory } from './tasks/model.js';
import type { Task } from './tasks/model.js';
import type { TaskStore } from './tasks/task-store.js';
import type { ListParams } from './semantic-inputs.js';

export interface TaskList {
  readonly tasks: Task[];
  /** the offset of the next page as a token; empty on the last page */
  readonly nextPageToken: string;
  readonly totalSize: number;
}

/** `running`: the copy of a task whose turn runs in this process, newer than the stored one */
export async function listOwnTasks(
  store: TaskStore,
  running: (id: string) => Task | undefined,
  params: ListParams,
): Promise<TaskList> {
  const offset = params.pageToken ? Number(params.pageToken) : 0;
  const invalidToken = () => invalidParams('pageToken is not a token this agent gave out', 'pageToken');
  if (!Number.isSafeInteger(offset) || offset < 0) throw invalidToken();
  const page = await store.listTasks({
    owner: params.caller,
    ...(params.contextId !== undefined ? { contextId: params.contextId } : {}),
    ...(params.state !== undefined ? { state: params.state } : {}),
    ...(params.statusAfter !== undefined ? { statusAfter: params.statusAfter } : {}),
    offset,
    limit: params.pageSize,
  });
  if (offset > page.total) throw invalidToken();
  const tasks = page.tasks.map((stored) => {
    const shown = withHistory(running(stored.id) ?? stored, params.historyLength);
    return params.includeArtifacts ? shown : { ...shown, artifacts: [] };
  });
  const next = offset + tasks.length;
  return { tasks, nextPageToken: next < page.total ? String(next) : '', totalSize: page.total };
}
