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
}

export const CORPUS_PROJECTS: readonly CorpusProject[] = [
  { name: 'rasa-quickstart' },
  // Written for Rasa Pro 3.13.9: interrupted flows resume at once with utter_flow_continue_interrupted.
  { name: 'starterpack-retail-banking-en', rasaVersion: '3.13' },
  { name: 'starterpack-telco-en', rasaVersion: '3.16' },
  { name: 'starterpack-insurance-en', rasaVersion: '3.16' },
];
