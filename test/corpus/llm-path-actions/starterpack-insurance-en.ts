// The corpus stub actions, loaded through this module like the other projects' (these keep no state).
export { actions } from '../actions/starterpack-insurance-en.js';
