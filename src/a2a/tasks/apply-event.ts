/** How an event changes a task: the one rule every store and stream follows. */
import type { Artifact, Task, TaskEvent } from './model.js';

export function applyTaskEvent(task: Task, event: TaskEvent): Task {
  switch (event.kind) {
    case 'task':
      return event.task;
    case 'status-update': {
      // the agent's answer of a turn becomes part of the history (as a2a-js does); the progress messages
      // of a working status are only the pieces of that answer, streamed as they were produced
      const message = event.status.state === 'working' ? undefined : event.status.message;
      return { ...task, status: event.status, history: message ? [...task.history, message] : task.history };
    }
    case 'artifact-update':
      return { ...task, artifacts: mergeArtifact(task.artifacts, event.artifact, event.append) };
  }
}

function mergeArtifact(artifacts: readonly Artifact[], artifact: Artifact, append: boolean): Artifact[] {
  const index = artifacts.findIndex((item) => item.artifactId === artifact.artifactId);
  if (index < 0) return [...artifacts, artifact];
  const merged = artifacts.slice();
  const earlier = artifacts[index] as Artifact;
  merged[index] = append ? { ...earlier, parts: [...earlier.parts, ...artifact.parts] } : artifact;
  return merged;
}
