/**
 * The logger stores write to: the pino call shape of the runtime's Logger, restated here because
 * stores may not import the runtime (any pino logger or the runtime's Logger fits).
 */
export interface StoreLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export const SILENT_STORE_LOGGER: StoreLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
