/** Replay: walk a stored conversation's events one at a time, with the stack and slots after each. */
import type { Event } from '../core/events/types.js';
import type { ReplayStep } from '../server/inspect/views.js';
import { api } from './api.js';
import { el, replaceChildren } from './dom.js';
import { positionPanel, slotsPanel, stackPanel } from './panels.js';

export function eventText(event: Event): string {
  switch (event.event) {
    case 'user':
      return `user: ${event.text ?? ''}`;
    case 'bot':
      return `bot: ${event.text ?? ''}`;
    case 'action':
      return `action ${event.name}`;
    case 'slot':
      return `slot ${event.name} = ${JSON.stringify(event.value)}`;
    default:
      return event.event;
  }
}

export class Replay {
  readonly element = el('div', { class: 'replay', 'data-testid': 'replay' });
  private steps: ReplayStep[] = [];
  private at = 0;

  constructor(private readonly onError: (error: unknown) => void) {}

  async load(conversationId: string): Promise<void> {
    const answer = await api.replay(conversationId, 0);
    this.steps = answer.steps;
    this.at = Math.max(0, this.steps.length - 1);
    this.render(answer.eventCount);
  }

  private move(to: number): void {
    this.at = Math.min(Math.max(0, to), Math.max(0, this.steps.length - 1));
    this.render(this.steps.length);
  }

  private render(eventCount: number): void {
    const step = this.steps[this.at];
    const button = (label: string, testId: string, to: () => number) => {
      const b = el('button', { type: 'button', 'data-testid': testId }, label);
      b.addEventListener('click', () => {
        try {
          this.move(to());
        } catch (error) {
          this.onError(error);
        }
      });
      return b;
    };
    const controls = el(
      'div',
      { class: 'controls' },
      button('« first', 'replay-first', () => 0),
      button('◀ back', 'replay-back', () => this.at - 1),
      button('next ▶', 'replay-next', () => this.at + 1),
      button('last »', 'replay-last', () => this.steps.length - 1),
      el(
        'span',
        { 'data-testid': 'replay-index' },
        step ? `event ${step.index + 1} of ${eventCount}` : 'no events',
      ),
    );
    if (!step) {
      replaceChildren(this.element, controls);
      return;
    }
    replaceChildren(
      this.element,
      controls,
      el('p', { 'data-testid': 'replay-event', class: 'event' }, eventText(step.event)),
      positionPanel(step.position, step.stack),
      stackPanel(step.stack),
      slotsPanel(step.slots, new Set()),
    );
  }
}
