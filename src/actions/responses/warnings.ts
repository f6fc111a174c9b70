/**
 * Something that went wrong while filling a response in. Rendering never fails because of it: the
 * affected string is sent as written (Rasa's behaviour), and the caller traces the warning.
 * - `RESPONSE_PLACEHOLDER_UNRESOLVED`: a `{name}` that is neither a slot nor a kwarg (Rasa's KeyError);
 * - `RESPONSE_FORMAT_INVALID`: text Python's str.format rejects, such as a lone `{` or `}`;
 * - `RESPONSE_JINJA_FAILED`: a `template: jinja` string that does not parse or render.
 */
export interface RenderWarning {
  readonly code: 'RESPONSE_PLACEHOLDER_UNRESOLVED' | 'RESPONSE_FORMAT_INVALID' | 'RESPONSE_JINJA_FAILED';
  /** where in the variation: `text`, `buttons[0].payload`, `custom.blocks[1].text`, ... */
  readonly path: string;
  readonly message: string;
}

/** A rendered string and whatever went wrong producing it. */
export interface RenderedString {
  readonly text: string;
  readonly warnings: readonly RenderWarning[];
}
