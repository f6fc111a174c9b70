/**
 * How A2A turns pass the server's door (server/turn-gate.ts implements it; a2a/ does not import
 * server/): each turn is counted in flight and in /metrics, and once a graceful shutdown began new
 * turns are refused while the running ones finish. Without one (tests of the handler alone), turns
 * just run.
 */
export interface TurnAdmission {
  /** true once a shutdown began */
  readonly isClosing: boolean;
  /**
   * runs the turn counted as one of `channel`'s; rejects once closing. `request`: the HTTP request
   * that carried it (its log lines then carry the request's id)
   */
  track<T>(channel: string, conversationId: string, turn: () => Promise<T>, request?: object): Promise<T>;
  /** runs once the turns in flight at shutdown are done, before the connections close */
  onDrained(callback: () => void | Promise<void>): void;
}

/** no server around: every turn runs, nothing is counted */
export const OPEN_ADMISSION: TurnAdmission = {
  isClosing: false,
  track: (_channel, _conversationId, turn) => turn(),
  onDrained: () => undefined,
};
