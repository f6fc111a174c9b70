import { patternFrame, push } from '../stack/operations.js';
import type { CommandScope } from './types.js';

/** Most commands only push their pattern; the pattern flow does the rest. */
export function pushPattern(
  scope: CommandScope,
  patternId: string,
  context: Readonly<Record<string, unknown>> = {},
): void {
  if (!scope.context.flows.has(patternId)) return;
  const frame = patternFrame({ frameId: scope.context.newFrameId(), patternId, context });
  scope.draft.setStack(push(scope.draft.stack, frame));
}
