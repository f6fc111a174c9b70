import { resolve } from 'node:path';
import { corpusRoot } from '../support/corpus.js';

/** A path in the third-party corpus (test/support/corpus.ts says where it lives). */
export function corpusPath(relative: string): string {
  return resolve(corpusRoot(), relative);
}

export interface CorpusProject {
  readonly name: string;
  /** the Rasa version whose default patterns the project was written against, when not the newest */
  readonly rasaVersion?: string;
  /**
   * how many deterministic e2e cases (the oracle marks them so) the replays run, at least: a case that
   * falls out of the replay set (a renamed file, an oracle no longer matching) fails the replay tests
   */
  readonly replayCases: number;
}

export const CORPUS_PROJECTS: readonly CorpusProject[] = [
  { name: 'rasa-quickstart', replayCases: 8 },
  // Written for Rasa Pro 3.13.9: interrupted flows resume at once with utter_flow_continue_interrupted.
  { name: 'starterpack-retail-banking-en', rasaVersion: '3.13', replayCases: 26 },
  { name: 'starterpack-telco-en', rasaVersion: '3.16', replayCases: 6 },
  { name: 'starterpack-insurance-en', rasaVersion: '3.16', replayCases: 7 },
];
