import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  isKnownChannelName,
  RASA_CHANNELS_NOT_SHIPPED,
  SHIPPED_CHANNEL_NAMES,
} from '../../../core/channel-names.js';
import { positionOf } from '../../load/yaml-file.js';
import { closest } from '../../schemas/problems.js';
import type { ValidationRule } from '../rule.js';

/** The files `parley run` would load a channel module from, for a name without a dot. */
const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

/**
 * A credentials.yml channel name that is no channel Parley ships, none of Rasa's and no module of the
 * project: `parley run` skips it (Rasa stops), so validate says so now, with the closest known name.
 * Module paths (`addons.my_channel.MyInput`, a file path) are left to `parley run`, which loads them.
 */
export const channelsRule: ValidationRule = {
  name: 'channels',
  check(context) {
    const section = context.project.raw.credentials;
    if (!section) return;
    const root = context.project.files.root;
    for (const name of Object.keys(section.data)) {
      if (isKnownChannelName(name) || /[./\\]/.test(name)) continue;
      if (MODULE_EXTENSIONS.some((extension) => existsSync(join(root, name + extension)))) continue;
      const guess = closest(name, [...SHIPPED_CHANNEL_NAMES, ...RASA_CHANNELS_NOT_SHIPPED]);
      context.report(
        'CREDENTIALS_UNKNOWN_CHANNEL',
        positionOf(section.file, [name], true),
        `credentials.yml: '${name}' is not a channel Parley ships (${SHIPPED_CHANNEL_NAMES.join(', ')}), nor one of Rasa's, nor a module of the project; \`parley run\` skips it.`,
        guess ? { hint: `did you mean '${guess}'?` } : {},
      );
    }
  },
};
