import { writeSections } from './binary.js';
import type { Section } from './binary.js';
import type { IntentClassifierParts } from './classifier.js';
import { quantiseRows } from './quantise.js';

export const FORMAT_VERSION = 1;

/** The model as bytes: a JSON header (labels, options, vocabularies) then the weights as typed arrays. */
export function serializeParts(classifier: IntentClassifierParts): Uint8Array {
  const quantised = classifier.options.quantise;
  const sections: Section[] = [{ type: 'f32', data: classifier.vectoriser.idf }];
  const matrix = (weights: Float32Array, width: number): void => {
    if (!quantised) return void sections.push({ type: 'f32', data: weights });
    const rows = quantiseRows(weights, width);
    sections.push({ type: 'i8', data: rows.values }, { type: 'i8', data: rows.exponents });
  };
  const members = classifier.members.map((member) => {
    const { model } = member;
    if (member.kind === 'linear') {
      matrix(member.model.weights, model.classes);
      sections.push({ type: 'f32', data: member.model.bias });
      return {
        kind: member.kind,
        temperature: member.temperature,
        features: model.features,
        classes: model.classes,
      };
    }
    matrix(member.model.inputWeights, member.model.hidden);
    sections.push({ type: 'f32', data: member.model.hiddenBias });
    matrix(member.model.outputWeights, model.classes);
    sections.push({ type: 'f32', data: member.model.outputBias });
    const { features, hidden, classes } = member.model;
    return { kind: member.kind, temperature: member.temperature, features, hidden, classes };
  });
  const header = {
    labels: classifier.labels,
    options: classifier.options,
    vocabularies: classifier.vectoriser.vocabularies.map((vocabulary) => [...vocabulary.keys()]),
    unseenIdf: classifier.vectoriser.unseenIdf,
    members,
  };
  return writeSections(FORMAT_VERSION, header, sections);
}
