/** Stable codes of the classifier's failures; the CLI maps them to messages and exit codes. */
export type ClassifierErrorCode =
  'NLU_NO_TRAINING_DATA' | 'NLU_BAD_DATA_FILE' | 'NLU_BAD_MODEL' | 'NLU_BAD_OPTION';

export class ClassifierError extends Error {
  readonly code: ClassifierErrorCode;

  constructor(code: ClassifierErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ClassifierError';
    this.code = code;
  }
}
