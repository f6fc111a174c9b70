/** The CLI's only contact with the terminal, so commands can be tested without a process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  setExitCode(code: number): void;
  /** stderr is a terminal: progress may be drawn in place there */
  readonly stderrIsTTY?: boolean;
  /** where interactive commands (`parley shell`) read lines; default: process.stdin */
  readonly stdin?: NodeJS.ReadableStream;
}
