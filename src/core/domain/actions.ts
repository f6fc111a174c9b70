import { isBuiltInAction } from './built-in-actions.js';
import type { Domain } from './types.js';

/** Whether an action name resolves to something the runtime can run: a response, a declared action, a built-in. */
export function isRunnableAction(domain: Domain, name: string): boolean {
  return domain.responses.has(name) || domain.actions.has(name) || isBuiltInAction(name);
}
