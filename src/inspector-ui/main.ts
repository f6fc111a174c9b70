/** The inspector page: conversations, chat, live panels, replay and (when served) flow diagrams. */
import type { ConversationView } from '../server/inspect/views.js';
import { api } from './api.js';
import type { BotMessage } from './api.js';
import { el, replaceChildren } from './dom.js';
import { DiagramPanel } from './diagram.js';
import { changedSlots, positionPanel, slotsPanel, stackPanel, turnPanel } from './panels.js';
import { Replay } from './replay.js';

const root = document.getElementById('inspector') as HTMLElement;
const status = el('p', { class: 'status', 'data-testid': 'status', role: 'status' });
const list = el('ul', { class: 'conversations', 'data-testid': 'conversations' });
const chat = el('div', { class: 'chat', 'data-testid': 'chat' });
const input = el('input', {
  type: 'text',
  'data-testid': 'message',
  placeholder: 'Type a message',
  maxlength: '10000',
});
const form = el(
  'form',
  { class: 'composer' },
  input,
  el('button', { type: 'submit', 'data-testid': 'send' }, 'Send'),
);
const title = el('h2', { 'data-testid': 'conversation-id' });
const position = el('section', { class: 'panel' });
const stack = el('section', { class: 'panel' });
const slots = el('section', { class: 'panel' });
const turns = el('div', { 'data-testid': 'turns' });
const replay = new Replay(showError);
const diagram = new DiagramPanel(showError);
let current = `inspect-${Math.random().toString(36).slice(2, 10)}`;

function showError(error: unknown): void {
  status.textContent = error instanceof Error ? error.message : String(error);
  status.classList.add('error');
}

function button(label: string, testId: string, onClick: () => Promise<void>): HTMLButtonElement {
  const b = el('button', { type: 'button', 'data-testid': testId }, label);
  b.addEventListener('click', () => void onClick().catch(showError));
  return b;
}

function panel(heading: string, body: HTMLElement, testId: string): HTMLElement {
  return el('section', { class: 'panel', 'data-testid': testId }, el('h3', {}, heading), body);
}

function render(view: ConversationView): void {
  title.textContent = view.conversationId;
  const last = view.turns.at(-1);
  replaceChildren(position, el('h3', {}, 'Active flow and step'), positionPanel(view.position, view.stack));
  replaceChildren(stack, el('h3', {}, 'Dialogue stack (top first)'), stackPanel(view.stack));
  replaceChildren(slots, el('h3', {}, 'Slots'), slotsPanel(view.slots, changedSlots(last?.trace)));
  const omitted =
    view.turnsOmitted > 0
      ? el('p', { class: 'muted' }, `${view.turnsOmitted} earlier turns not shown`)
      : null;
  replaceChildren(
    turns,
    omitted,
    ...[...view.turns].reverse().map((turn, i) => turnPanel(turn, view.turns.length - 1 - i)),
  );
  replaceChildren(chat, ...view.turns.flatMap((turn) => chatLines(turn.text, turn.trace)));
  chat.scrollTop = chat.scrollHeight;
  diagram.show(view);
}

/** The user's text and the bot's messages of a turn, buttons clickable. */
function chatLines(text: string | null, trace: ConversationView['turns'][number]['trace']): HTMLElement[] {
  const lines: HTMLElement[] =
    text === null ? [] : [el('p', { class: 'user', 'data-testid': 'user-message' }, text)];
  for (const event of trace)
    if (event.type === 'action_run')
      for (const bot of event.events)
        if (bot.event === 'bot')
          lines.push(botLine({ ...(bot.text ? { text: bot.text } : {}), ...bot.data } as BotMessage));
  return lines;
}

function botLine(message: BotMessage): HTMLElement {
  const buttons = (message.buttons ?? []).map((choice) => {
    const b = el(
      'button',
      { type: 'button', class: 'choice', 'data-testid': 'bot-button' },
      choice.title ?? choice.payload ?? '',
    );
    b.addEventListener('click', () => void send(choice.payload ?? choice.title ?? '').catch(showError));
    return b;
  });
  return el(
    'div',
    { class: 'bot', 'data-testid': 'bot-message' },
    message.text ?? '',
    buttons.length ? el('div', { class: 'choices' }, ...buttons) : null,
  );
}

async function send(text: string): Promise<void> {
  if (text.trim() === '') return;
  status.textContent = 'Sending…';
  status.classList.remove('error');
  const answer = await api.send(current, text);
  render(answer.view);
  status.textContent = `${answer.messages.length} bot message(s)`;
  await Promise.all([loadConversations(), replay.load(current)]);
}

async function open(id: string): Promise<void> {
  current = id;
  render(await api.view(id));
  await replay.load(id);
  for (const item of list.querySelectorAll('button'))
    item.classList.toggle('current', item.dataset['id'] === id);
}

async function loadConversations(): Promise<void> {
  const page = await api.conversations();
  replaceChildren(
    list,
    ...page.conversations.map((row) => {
      const b = button(`${row.conversationId} (${row.eventCount})`, 'conversation', () =>
        open(row.conversationId),
      );
      b.dataset['id'] = row.conversationId;
      if (row.conversationId === current) b.classList.add('current');
      return el('li', {}, b);
    }),
  );
  if (page.next)
    append(list, el('li', { class: 'muted' }, 'more conversations: only the first 50 are listed'));
}

function append(parent: HTMLElement, child: HTMLElement): void {
  parent.appendChild(child);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value;
  input.value = '';
  void send(text).catch(showError);
});

replaceChildren(
  root,
  el('header', {}, el('h1', {}, 'Parley inspector'), status),
  el(
    'nav',
    {},
    el('h3', {}, 'Conversations'),
    button('New conversation', 'new-conversation', async () => {
      current = `inspect-${Math.random().toString(36).slice(2, 10)}`;
      render(await api.view(current));
      await replay.load(current);
    }),
    list,
  ),
  el(
    'div',
    { class: 'center' },
    title,
    button('Restart conversation', 'restart', async () => {
      render((await api.restart(current)).view);
      await Promise.all([loadConversations(), replay.load(current)]);
    }),
    chat,
    form,
    panel('Turns (latest first)', turns, 'turns-panel'),
  ),
  el(
    'aside',
    {},
    el('div', { 'data-testid': 'state-panels' }, position, stack, slots),
    diagram.element,
    panel('Replay', replay.element, 'replay-panel'),
  ),
);

void (async () => {
  await open(current);
  await Promise.all([loadConversations(), diagram.init()]);
})().catch(showError);
