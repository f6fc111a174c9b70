/** Stable codes of entity-extraction failures (same spelling as the intent classifier's codes). */
export type EntityErrorCode = 'NLU_BAD_MODEL' | 'NLU_BAD_OPTION';

export class EntityError extends Error {
  readonly code: EntityErrorCode;

  constructor(code: EntityErrorCode, message: string) {
    super(message);
    this.name = 'EntityError';
    this.code = code;
  }
}
