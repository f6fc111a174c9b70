/** What a box says about its step: the kind on the first line, the step's subject on the second. */
import { assertNever } from '../core/errors.js';
import type { Step } from '../core/flows/types.js';

export interface NodeLabel {
  readonly kind: string;
  readonly detail: string;
}

export function stepLabel(step: Step): NodeLabel {
  switch (step.kind) {
    case 'action':
      return { kind: 'action', detail: step.action };
    case 'collect':
      return { kind: 'collect', detail: step.collect };
    case 'set_slots':
      return {
        kind: 'set slots',
        detail: step.slots.map((slot) => `${slot.name}=${valueText(slot.value)}`).join(', '),
      };
    case 'link':
      return { kind: 'link', detail: `→ ${step.link}` };
    case 'call':
      return { kind: callKind(step.callee), detail: `→ ${step.call}` };
    case 'noop':
      return { kind: 'noop', detail: step.hasCustomId ? step.id : '' };
    default:
      return assertNever(step, 'step kind');
  }
}

function callKind(callee: 'mcp_tool' | 'agent' | undefined): string {
  if (callee === 'mcp_tool') return 'call tool';
  if (callee === 'agent') return 'call agent';
  return 'call';
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
