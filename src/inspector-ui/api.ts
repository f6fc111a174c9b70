/** The inspector's JSON API, called with the page's own ?token= (the HTTP API's auth). */
import type { ConversationPage } from '../core/ports.js';
import type { TraceEvent } from '../core/trace/trace-events.js';
import type { ConversationView, ReplayStep } from '../server/inspect/views.js';

export interface BotMessage {
  readonly text?: string;
  readonly buttons?: readonly { readonly title?: string; readonly payload?: string }[];
  readonly image?: string;
  readonly custom?: unknown;
}

export interface FlowInfo {
  readonly id: string;
  readonly name: string;
  readonly description: string;
}

const token = new URLSearchParams(window.location.search).get('token');

function url(path: string, query: Readonly<Record<string, string | undefined>> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
  if (token !== null) params.set('token', token);
  const search = params.toString();
  return `/inspect/api${path}${search ? `?${search}` : ''}`;
}

async function call<T>(path: string, init: RequestInit = {}, query = {}): Promise<T> {
  const response = await fetch(url(path, query), {
    ...init,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  });
  const body = (await response.json()) as unknown;
  if (!response.ok) {
    const message = (body as { message?: unknown }).message;
    throw new Error(typeof message === 'string' ? message : `HTTP ${response.status}`);
  }
  return body as T;
}

const conversation = (id: string) => `/conversations/${encodeURIComponent(id)}`;

export const api = {
  conversations: (after?: string) => call<ConversationPage>('/conversations', {}, { limit: '50', after }),
  view: (id: string) => call<ConversationView>(conversation(id)),
  send: (id: string, text: string) =>
    call<{ messages: BotMessage[]; trace: TraceEvent[]; view: ConversationView }>(
      `${conversation(id)}/messages`,
      {
        method: 'POST',
        body: JSON.stringify({ text }),
      },
    ),
  restart: (id: string) =>
    call<{ view: ConversationView }>(`${conversation(id)}/restart`, { method: 'POST' }),
  replay: (id: string, offset: number) =>
    call<{ eventCount: number; offset: number; steps: ReplayStep[] }>(
      `${conversation(id)}/replay`,
      {},
      {
        offset: String(offset),
        limit: '500',
      },
    ),
  flows: () => call<{ flows: FlowInfo[]; diagrams: boolean }>('/flows'),
  /** the diagram's SVG text, to be parsed as an SVG document (never inserted as HTML) */
  diagram: async (flowId: string, conversationId: string | undefined): Promise<string> => {
    const response = await fetch(
      url(`/flows/${encodeURIComponent(flowId)}/diagram`, { conversation: conversationId }),
    );
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.text();
  },
};
