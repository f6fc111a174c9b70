/** The CLI's only contact with the terminal, so commands can be tested without a process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  setExitCode(code: number): void;
}
