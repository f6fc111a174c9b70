// Writes docs/diagnostics.md from the diagnostic catalogue, so the documented codes are the real ones.
import { writeFileSync } from 'node:fs';
import { renderDiagnosticsDoc } from '../src/cli/diagnostics-doc.js';

writeFileSync('docs/diagnostics.md', renderDiagnosticsDoc());
