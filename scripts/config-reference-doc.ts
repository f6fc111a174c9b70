// Writes docs/configuration-reference.md from the JSON Schemas of the project files, so every key listed is one the loader reads.
import { writeFileSync } from 'node:fs';
import { renderConfigReference } from '../src/cli/config-reference.js';

writeFileSync('docs/configuration-reference.md', renderConfigReference());
