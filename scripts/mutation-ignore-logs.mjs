// A Stryker ignorer (issue 12): mutants inside the arguments of a log call (`logger.info(...)`,
// `this.logger.warn(...)`, `context.logger.error(...)`) are reported as Ignored. A log line's text and
// fields are for operators; the tests pin down what a call logs only where it matters (and such a test
// would kill the mutant anyway if the call were not ignored), while each such mutant survives every
// other test and costs a full run of its covering tests: 40-60 s apiece in the SQL tracker store. The
// condition that decides whether to log is outside the call and is still mutated.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

const LOG_METHODS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

function isLogger(node) {
  if (node.type === 'Identifier') return /logger$/i.test(node.name);
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier')
    return /logger$/i.test(node.property.name);
  return false;
}

function isLogCall(node) {
  if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return false;
  const callee = node.callee;
  if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') return false;
  return (
    !callee.computed &&
    callee.property.type === 'Identifier' &&
    LOG_METHODS.has(callee.property.name) &&
    isLogger(callee.object)
  );
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'log-calls', {
    shouldIgnore(path) {
      return isLogCall(path.node) ? 'a log call: its text and fields are for operators' : undefined;
    },
  }),
];
