// The corpus stub actions again, as a separate module: the stubs keep per-conversation state (keyed by
// the runner's conversation ids), so the LLM-path run must not share an instance with replay.test.ts.
import { createQuickstartActions } from '../actions/rasa-quickstart.js';

export const actions = createQuickstartActions();
