// Rewrites the generated command table of docs/rasa-migration.md from the real program and the compatibility table.
import { readFileSync, writeFileSync } from 'node:fs';
import { withMigrationTable } from '../src/cli/migration-doc.js';

const path = 'docs/rasa-migration.md';
writeFileSync(path, withMigrationTable(readFileSync(path, 'utf8')));
