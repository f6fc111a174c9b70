// Response rendering: variation selection, `{slot}` and Jinja interpolation, bot message shape.
export { formatValues, interpolateFormat, mapStrings } from './interpolate.js';
export type { FormatValueInput } from './interpolate.js';
export { jinjaScope, renderJinja } from './jinja.js';
export type { JinjaScopeInput } from './jinja.js';
export { PyFloat, pyFloatRepr, pyFormat, pyFormatStr } from './python-format.js';
export { renderResponse } from './render.js';
export type { BotMessage, RenderedResponse, RenderInput } from './render.js';
export { conditionHolds, eligibleVariations, selectVariation } from './select-variation.js';
export type { VariationFilterInput, VariationSelectionInput } from './select-variation.js';
export type { RenderedString, RenderWarning } from './warnings.js';
