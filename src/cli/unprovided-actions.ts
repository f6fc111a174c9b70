import { extname } from 'node:path';
import type { CustomActionSource } from '../actions/custom/source.js';
import type { Assistant } from '../core/assistant.js';
import { declaredCustomActions, listNames } from '../core/domain/custom-actions.js';
import { assertNever } from '../core/errors.js';
import type { ActionsModule } from '../project/actions-module.js';
import type { Logger } from '../runtime/logger.js';

/** The declared custom actions no source provides (stubs, in-process modules, an action server), sorted. */
export function unprovidedCustomActions(
  assistant: Pick<Assistant, 'domain'>,
  sources: readonly CustomActionSource[],
): string[] {
  return declaredCustomActions(assistant.domain).filter(
    (name) => !sources.some((source) => source.has(name)),
  );
}

/**
 * Says once, when the agent is composed, which declared custom actions will fail when called: one
 * structured warning (code CUSTOM_ACTIONS_NOT_IMPLEMENTED, as `validate` reports it). With an action
 * server nothing is said: it may provide any of them.
 */
export function warnUnprovidedActions(
  logger: Logger,
  missing: readonly string[],
  module: ActionsModule,
): void {
  if (missing.length === 0) return;
  const them = missing.length === 1 ? 'it' : 'them';
  logger.warn(
    {
      code: 'CUSTOM_ACTIONS_NOT_IMPLEMENTED',
      actions: missing.slice(0, 50),
      count: missing.length,
      actions_module: module.name,
    },
    `${missing.length} declared custom action${missing.length === 1 ? ' has' : 's have'} no implementation ` +
      `(${listNames(missing)}): ${moduleSays(module, them)} and action_endpoint has no url, so each call ` +
      `fails with utter_internal_error_rasa. Write ${them} as TypeScript modules in ` +
      `${module.relativePath}/ (Python files are not run), or set action_endpoint.url to a Rasa SDK ` +
      `action server.`,
  );
}

function moduleSays(module: ActionsModule, them: string): string {
  const name = `the actions module '${module.name}'`;
  switch (module.kind) {
    case 'missing':
      return `${name} (${module.relativePath}/) does not exist`;
    case 'folder':
      return `no TypeScript or JavaScript module of ${name} (${module.relativePath}/) exports ${them}`;
    case 'file':
      return `${name} (${module.relativePath}${extname(module.path)}) does not export ${them}`;
    default:
      return assertNever(module.kind, 'actions module kind');
  }
}
