// Writes docs/compatibility.md from the registries Parley runs with, so the table cannot drift.
import { writeFileSync } from 'node:fs';
import { renderCompatibilityDoc } from '../src/cli/compatibility/render.js';

writeFileSync('docs/compatibility.md', renderCompatibilityDoc());
