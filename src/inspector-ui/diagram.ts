/**
 * The flow diagram panel, present only when the server draws diagrams: a flow chosen from the list (by
 * default the conversation's top user flow), with the current step and the path taken marked. The SVG
 * is parsed as an SVG document and cleaned of scripts and handlers before it joins the page.
 */
import type { ConversationView } from '../server/inspect/views.js';
import { api } from './api.js';
import type { FlowInfo } from './api.js';
import { el, replaceChildren } from './dom.js';

export class DiagramPanel {
  readonly element = el('section', { class: 'panel', 'data-testid': 'diagram-panel', hidden: '' });
  private readonly select = el('select', { 'data-testid': 'diagram-flow' });
  private readonly canvas = el('div', { class: 'diagram', 'data-testid': 'diagram' });
  private enabled = false;
  private chosen: string | undefined;
  private view: ConversationView | undefined;

  constructor(private readonly onError: (error: unknown) => void) {
    this.select.addEventListener('change', () => {
      this.chosen = this.select.value;
      void this.draw().catch(this.onError);
    });
  }

  async init(): Promise<void> {
    const { flows, diagrams } = await api.flows();
    this.enabled = diagrams;
    if (!diagrams) return;
    this.element.hidden = false;
    replaceChildren(
      this.select,
      ...flows.map((flow: FlowInfo) => el('option', { value: flow.id }, flow.name)),
    );
    replaceChildren(this.element, el('h3', {}, 'Flow diagram'), this.select, this.canvas);
    await this.draw();
  }

  show(view: ConversationView): void {
    this.view = view;
    if (this.enabled) void this.draw().catch(this.onError);
  }

  private flowToDraw(): string | undefined {
    const frames = this.view?.stack ?? [];
    const top = [...frames].reverse().find((frame) => frame.type === 'flow');
    return this.chosen ?? top?.flow_id ?? (this.select.value || undefined);
  }

  private async draw(): Promise<void> {
    const flowId = this.flowToDraw();
    if (!flowId) return;
    this.select.value = flowId;
    const text = await api.diagram(flowId, this.view?.conversationId);
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    if (svg.nodeName !== 'svg') throw new Error(`The diagram of ${flowId} is not SVG.`);
    clean(svg);
    replaceChildren(this.canvas, document.importNode(svg, true));
  }
}

/** Removes what could run code: scripts, foreign HTML, event handlers, javascript: links. */
function clean(root: Element): void {
  for (const node of root.querySelectorAll('script, foreignObject')) node.remove();
  for (const node of [root, ...root.querySelectorAll('*')])
    for (const attribute of [...node.attributes])
      if (/^on/i.test(attribute.name) || /^\s*javascript:/i.test(attribute.value))
        node.removeAttribute(attribute.name);
}
