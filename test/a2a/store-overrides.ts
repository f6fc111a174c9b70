/** A task store with some of its methods replaced, the others those of the store it wraps. */
import type { TaskStore } from '../../src/a2a/tasks/task-store.js';

export function withOverrides<S extends TaskStore>(inner: S, overrides: Partial<TaskStore>): TaskStore {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const replaced = (overrides as Record<string | symbol, unknown>)[property];
      if (replaced !== undefined) return replaced;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
