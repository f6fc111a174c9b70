/** The live panels: active flow and step, dialogue stack, slots, and the trace of each turn. */
import type { Command } from '../core/commands/types.js';
import type { SlotValues } from '../core/events/tracker-state.js';
import type { Stack } from '../core/stack/frames.js';
import type { CommandSource, FlowPosition, TraceEvent } from '../core/trace/trace-events.js';
import type { TurnView } from '../server/inspect/views.js';
import { el, show, table } from './dom.js';

/** The top frame's flow and step; under a pattern, also the user flow it serves and that flow's step. */
export function positionPanel(position: FlowPosition | undefined, stack: Stack = []): HTMLElement {
  if (!position) return el('p', { 'data-testid': 'position', class: 'muted' }, 'No flow is active.');
  const user = [...stack].reverse().find((frame) => frame.type === 'flow');
  const under =
    user && user.flow_id !== position.flowId
      ? el(
          'span',
          { class: 'muted', 'data-testid': 'user-flow' },
          ' — in user flow ',
          el('span', { class: 'flow' }, user.flow_id),
          ' at ',
          el('span', { class: 'step' }, user.step_id),
        )
      : null;
  return el(
    'p',
    { 'data-testid': 'position' },
    el('span', { class: 'flow', 'data-testid': 'active-flow' }, position.flowId),
    ' at step ',
    el('span', { class: 'step', 'data-testid': 'active-step' }, position.stepId),
    under,
  );
}

export function stackPanel(stack: Stack): HTMLElement {
  if (stack.length === 0) return el('p', { 'data-testid': 'stack', class: 'muted' }, 'The stack is empty.');
  // top of the stack first, as one reads it
  const rows = [...stack].reverse().map((frame) => [frame.flow_id, frame.step_id, frame.type]);
  return table(['flow', 'step', 'frame'], rows, 'stack');
}

export function slotsPanel(slots: SlotValues, changed: ReadonlySet<string>): HTMLElement {
  const rows = Object.entries(slots)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => [changed.has(name) ? el('strong', {}, name) : name, show(value)]);
  return table(['slot', 'value'], rows, 'slots');
}

/** Slots a turn changed (its slot_changed events). */
export function changedSlots(trace: readonly TraceEvent[] | undefined): Set<string> {
  return new Set((trace ?? []).flatMap((event) => (event.type === 'slot_changed' ? [event.name] : [])));
}

export function commandText(command: Command): string {
  const { command: name, ...fields } = command;
  const parts = Object.entries(fields).map(([key, value]) => `${key}=${show(value)}`);
  return parts.length > 0 ? `${name}(${parts.join(', ')})` : name;
}

export function sourceText(source: CommandSource): string {
  switch (source.kind) {
    case 'given':
      return 'given with the message (command oracle / API)';
    case 'payload':
      return source.payload === 'intent'
        ? `direct payload /${source.intent ?? ''}`
        : 'direct payload /SetSlots';
    case 'nlu':
      return `NLU: ${source.intent ?? 'no intent'} (${source.confidence.toFixed(2)})${entityText(source.entities)}`;
    case 'llm':
      return `LLM output: ${source.output}`;
    case 'llm_error':
      return `LLM failed: ${source.error}`;
    case 'router':
      return `router → ${source.route} (${source.intent ?? 'no intent'} ${source.confidence.toFixed(2)})`;
    case 'fallback':
      return `not understood: ${source.reason}`;
    case 'stored':
      return `stored message: intent ${source.intent ?? 'none'} (${source.confidence.toFixed(2)})${entityText(
        source.entities,
      )}`;
  }
}

function entityText(entities: readonly { entity: string; value: unknown }[]): string {
  return entities.length > 0
    ? `, entities ${entities.map((e) => `${e.entity}=${show(e.value)}`).join(', ')}`
    : '';
}

/** One turn: who said what, where the commands came from, what cleaning did, steps, actions, slots. */
export function turnPanel(turn: TurnView, index: number): HTMLElement {
  const items = turn.trace.flatMap((event) => traceLine(event));
  const title = turn.text === null ? 'conversation start' : `“${turn.text}”`;
  return el(
    'details',
    { class: 'turn', 'data-testid': 'turn', open: '' },
    el('summary', {}, `#${index + 1} ${title} `, el('span', { class: 'muted' }, `(${turn.traced} trace)`)),
    el('ul', {}, ...items),
  );
}

function traceLine(event: TraceEvent): HTMLElement[] {
  const line = (kind: string, ...text: (string | HTMLElement)[]) =>
    el('li', { class: `trace ${kind}`, 'data-kind': kind }, ...text);
  switch (event.type) {
    case 'commands_understood':
      return [
        line(
          'commands',
          el('b', {}, 'commands '),
          event.commands.map(commandText).join(', ') || 'none',
          el('span', { class: 'muted', 'data-testid': 'command-source' }, ` — ${sourceText(event.source)}`),
        ),
      ];
    case 'commands_cleaned':
      return event.changes.map((change) =>
        line('cleanup', `${change.outcome}: ${commandText(change.command)} — ${change.reason}`),
      );
    case 'step_visited':
      return [line('step', `step ${event.flowId} › ${event.stepId}`)];
    case 'action_run': {
      const bot = event.events.flatMap((e) => (e.event === 'bot' && e.text ? [` “${e.text}”`] : []));
      const others = event.events.filter((e) => e.event !== 'bot').map((e) => e.event);
      return [
        line('action', el('b', {}, event.action), ...bot, others.length ? ` [${others.join(', ')}]` : ''),
      ];
    }
    case 'slot_changed':
      return [line('slot', `slot ${event.name}: ${show(event.previous)} → ${show(event.value)}`)];
    case 'turn_started':
    case 'commands_received':
    case 'stack_changed':
    case 'turn_ended':
      return [];
  }
}
