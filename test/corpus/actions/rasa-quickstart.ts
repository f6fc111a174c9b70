/**
 * Stubs of the rasa-quickstart custom actions (`actions/add_contact.py`, `list_contacts.py`,
 * `remove_contact.py` and `db.py` upstream). Upstream keeps one copy of `db/contacts.json` per
 * sender id in a temp folder; here each conversation id gets its own copy of the seed list, made on
 * first use and kept in memory for the life of the action set.
 */
import { defineAction } from '../../../src/actions/custom/in-process.js';
import type { ActionContext, InProcessAction } from '../../../src/actions/custom/in-process.js';
import { lazy, readCorpusJson, slotSet, slotText } from './support.js';

const PROJECT = 'rasa-quickstart';

interface Contact {
  readonly name: string;
  readonly handle: string;
}

const seedContacts = lazy(() => {
  const raw = readCorpusJson(PROJECT, 'db', 'contacts.json');
  if (!Array.isArray(raw)) throw new Error('db/contacts.json must hold a list of contacts');
  return raw.map((item: unknown): Contact => {
    const { name, handle } = (item ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || typeof handle !== 'string')
      throw new Error(`db/contacts.json: a contact needs a name and a handle: ${JSON.stringify(item)}`);
    return { name, handle };
  });
});

/** A fresh set of the three actions with its own contact store (one list per conversation id). */
export function createQuickstartActions(): InProcessAction[] {
  const stores = new Map<string, Contact[]>();
  const contactsOf = (context: ActionContext): Contact[] => {
    let contacts = stores.get(context.conversationId);
    if (!contacts) {
      contacts = [...seedContacts()];
      stores.set(context.conversationId, contacts);
    }
    return contacts;
  };

  return [
    defineAction({
      name: 'add_contact',
      run(context) {
        const contacts = contactsOf(context);
        const name = slotText(context, 'add_contact_name');
        const handle = slotText(context, 'add_contact_handle');
        if (name === null || handle === null)
          return { events: [slotSet('return_value', 'data_not_present')] };
        if (contacts.some((contact) => contact.handle === handle))
          return { events: [slotSet('return_value', 'already_exists')] };
        contacts.push({ name, handle });
        return { events: [slotSet('return_value', 'success')] };
      },
    }),
    defineAction({
      name: 'list_contacts',
      run(context) {
        const contacts = contactsOf(context);
        const list = contacts.map((contact) => `- ${contact.name} (${contact.handle}) \n`).join('');
        return { events: [slotSet('contacts_list', contacts.length > 0 ? list : null)] };
      },
    }),
    defineAction({
      name: 'remove_contact',
      run(context) {
        const contacts = contactsOf(context);
        const handle = slotText(context, 'remove_contact_handle');
        if (handle === null) return { events: [slotSet('return_value', 'missing_handle')] };
        const index = contacts.findIndex((contact) => contact.handle === handle);
        if (index < 0) return { events: [slotSet('return_value', 'not_found')] };
        const [removed] = contacts.splice(index, 1);
        return {
          events: [slotSet('return_value', 'success'), slotSet('remove_contact_name', removed?.name ?? null)],
        };
      },
    }),
  ];
}

export const actions: InProcessAction[] = createQuickstartActions();
