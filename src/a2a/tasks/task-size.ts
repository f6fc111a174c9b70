/**
 * A task's size in bytes of JSON, kept up to date as the task changes: messages are measured once, when
 * they join the history (a turn appends to it; re-measuring a long history at every update would cost
 * more than the turn). A history over its byte limit loses its oldest messages, never the newest one.
 * The artifacts and a working status's message count only toward the total, so they are measured when
 * the total is read: a turn publishes a working status for each bot message it streams, and the total
 * is read when the task is written, by then mostly with a final status.
 */
import type { A2aMessage, Artifact, Task } from './model.js';

/** ids, state and timestamp: what every task costs besides its messages and artifacts */
const BASE_BYTES = 256;

export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** the size of one value, measured the first time it is asked for, again only for another value */
class MeasuredOnce<T> {
  private value: T | undefined;
  private bytes = 0;

  constructor(private readonly measure: (value: T) => number) {}

  of(value: T | undefined): number {
    if (value === undefined) return 0;
    if (value !== this.value) {
      this.value = value;
      this.bytes = this.measure(value);
    }
    return this.bytes;
  }
}

export class TaskSize {
  private history: readonly A2aMessage[] = [];
  private historySizes: number[] = [];
  private historyBytes = 0;
  private artifacts: readonly Artifact[] | undefined;
  private readonly artifactSize = new MeasuredOnce<readonly Artifact[]>((artifacts) =>
    artifacts.length === 0 ? 0 : jsonBytes(artifacts),
  );
  private statusMessage: A2aMessage | undefined;
  private readonly statusSize = new MeasuredOnce<A2aMessage>(jsonBytes);

  get total(): number {
    return (
      BASE_BYTES +
      this.historyBytes +
      this.artifactSize.of(this.artifacts) +
      this.statusSize.of(this.statusMessage)
    );
  }

  /** Measures `task`'s history; returns it, cut from the front to `maxHistoryBytes` when over. */
  measure(task: Task, maxHistoryBytes: number): readonly A2aMessage[] {
    this.measureHistory(task.history);
    while (this.historyBytes > maxHistoryBytes && this.historySizes.length > 1) {
      this.historyBytes -= this.historySizes.shift() as number;
      this.history = this.history.slice(1);
    }
    this.artifacts = task.artifacts;
    // a working status's message is not in the history (it is a piece of the answer still coming)
    this.statusMessage = task.status.state === 'working' ? task.status.message : undefined;
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
