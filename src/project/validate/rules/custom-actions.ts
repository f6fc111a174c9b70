import { declaredCustomActions, listNames } from '../../../core/domain/custom-actions.js';
import type { SourceRef } from '../../../core/errors.js';
import {
  actionModuleFiles,
  actionServerUrl,
  actionsModuleName,
  locateActionsModule,
  pythonModuleFiles,
} from '../../actions-module.js';
import type { ActionsModule } from '../../actions-module.js';
import { positionOf } from '../../load/yaml-file.js';
import type { RuleContext, ValidationRule } from '../rule.js';

/**
 * Declared custom actions nothing can run. Which names a module exports is known only by importing it,
 * which validation does not do; so this reports only the certain case: no action server `url` and not
 * one TypeScript/JavaScript module in the actions module, while the domain declares custom actions.
 * `parley run` names the exact missing actions once the modules are loaded.
 */
export const customActionsRule: ValidationRule = {
  name: 'custom-actions',
  check(context) {
    const { endpoints, domain } = context.assistant;
    const declared = declaredCustomActions(domain);
    if (declared.length === 0 || actionServerUrl(endpoints) !== undefined) return;
    const module = locateActionsModule(context.project.files.root, actionsModuleName(endpoints));
    if (actionModuleFiles(module).length > 0) return;
    const folder = `${module.relativePath}/`;
    const count = declared.length;
    const them = count === 1 ? 'it' : 'them';
    context.report(
      'CUSTOM_ACTIONS_NOT_IMPLEMENTED',
      actionsPosition(context),
      `${count} custom action${count === 1 ? ' is' : 's are'} declared but nothing Parley runs provides ` +
        `${them} (${listNames(declared)}): ${whereNothingIs(module, folder, context.project.files.root)}; ` +
        `action_endpoint has no url. Each call would fail with utter_internal_error_rasa: write ${them} as ` +
        `TypeScript modules in ${folder}, or set action_endpoint.url to a Rasa SDK action server.`,
    );
  },
};

function whereNothingIs(module: ActionsModule, folder: string, root: string): string {
  const python = pythonModuleFiles(module, root);
  if (module.kind === 'missing')
    return python.length > 0
      ? `the actions module '${module.name}' is ${python.join(', ')}, Python, which Parley does not run`
      : `the actions module '${module.name}' (${folder}) does not exist`;
  const none = `the actions module '${module.name}' (${folder}) holds no TypeScript or JavaScript module`;
  if (python.length === 0) return none;
  return `${none}, and its ${python.length} Python file${python.length === 1 ? ' is' : 's are'} not run by Parley`;
}

/** The domain's `actions:` key (the first domain file that has one). */
function actionsPosition(context: RuleContext): SourceRef | undefined {
  const section = context.project.raw.domain.find((part) => 'actions' in part.data);
  return section ? positionOf(section.file, ['actions'], true) : undefined;
}
