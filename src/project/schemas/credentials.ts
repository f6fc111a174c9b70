import type { SchemaObject } from 'ajv';
import { described } from './describe.js';

/*
 * JSON Schema (draft-07) of credentials.yml: a map of channel name to that channel's settings. The
 * settings go to the channel's factory as they are, so their keys are not checked here; a channel with
 * no settings (`rest:`) is valid. Whether a channel name is known is for the loader to say.
 * See flows.ts for the meaning of the `x-` annotations.
 */

export const credentialsSchema: SchemaObject = {
  type: 'object',
  'x-expected': 'a map of channel name to channel settings',
  additionalProperties: described(
    {
      type: ['object', 'null'],
      'x-expected': 'a map of channel settings (or empty, as in `rest:`)',
      'x-hint': 'indent the settings under the channel name, e.g. `socketio:` then `  user_message_evt: ...`',
    },
    'a channel served under /webhooks/<name>/: `rest`, `callback`, `socketio`, or a custom channel module path, with its settings (docs/channels.md)',
  ),
};
