/**
 * A task's size in bytes of JSON, kept up to date as the task changes: messages are measured once, when
 * they join the history (a turn appends to it; re-measuring a long history at every update would cost
 * more than the turn). A history over its byte limit loses its oldest messages, never the newest one.
 */
import type { A2aMessage, Artifact, Task } from './model.js';

/** ids, state and timestamp: what every task costs besides its messages and artifacts */
const BASE_BYTES = 256;

export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

export class TaskSize {
  private history: readonly A2aMessage[] = [];
  private historySizes: number[] = [];
  private historyBytes = 0;
  private artifacts: readonly Artifact[] | undefined;
  private artifactBytes = 0;
  private statusBytes = 0;

  get total(): number {
    return BASE_BYTES + this.historyBytes + this.artifactBytes + this.statusBytes;
  }

  /** Measures `task`; returns its history, cut from the front to `maxHistoryBytes` when over. */
  measure(task: Task, maxHistoryBytes: number): readonly A2aMessage[] {
    this.measureHistory(task.history);
    while (this.historyBytes > maxHistoryBytes && this.historySizes.length > 1) {
      this.historyBytes -= this.historySizes.shift() as number;
      this.history = this.history.slice(1);
    }
    if (task.artifacts !== this.artifacts) {
      this.artifacts = task.artifacts;
      this.artifactBytes = task.artifacts.length === 0 ? 0 : jsonBytes(task.artifacts);
    }
    // a working status's message is not in the history (it is a piece of the answer still coming)
    const message = task.status.state === 'working' ? task.status.message : undefined;
    this.statusBytes = message ? jsonBytes(message) : 0;
    return this.history.length === task.history.length ? task.history : this.history;
  }

  private measureHistory(history: readonly A2aMessage[]): void {
    if (history === this.history) return;
    const known = this.history;
    const appended =
      history.length >= known.length && known.every((message, index) => history[index] === message);
    if (!appended) {
      this.historySizes = [];
      this.historyBytes = 0;
    }
    for (let index = appended ? known.length : 0; index < history.length; index += 1) {
      const bytes = jsonBytes(history[index]);
      this.historySizes.push(bytes);
      this.historyBytes += bytes;
    }
    this.history = history;
  }
}
