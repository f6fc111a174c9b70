export { valueForSlot, valueFromText } from './value-for-slot.js';
export type { SlotValue, ValueForSlotOptions } from './value-for-slot.js';
export { boolFromText } from './bool-text.js';
export { floatFromText } from './float-text.js';
export { categoricalFromText } from './categorical-text.js';
export { editDistance, typoTolerance } from './edit-distance.js';
