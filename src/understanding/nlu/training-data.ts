import { load, CORE_SCHEMA } from 'js-yaml';
import type { Assistant } from '../../core/assistant.js';
import type { IntentExamples, NluData } from '../../core/domain/nlu-data.js';
import { nluDataFromDocument } from '../../core/domain/nlu-examples.js';
import type { Flow } from '../../core/flows/types.js';
import { porterStem } from './classifier/porter.js';
import { flowExamples } from './flow-examples.js';
import { FLOW_INTENT_PREFIX } from './nlu-command-generator.js';
import { projectRepairIntents, repairTrainingDataText } from './repair-intents.js';
import { words } from './slot-values/normalise.js';

/**
 * The training data of an assistant's offline understanding: its own NLU examples, Parley's
 * conversation-repair intents (a project intent of the same name replaces one, and a project intent
 * that triggers the same repair pattern takes its examples in its place), and for every flow
 * without an nlu_trigger what it says about itself (flowExamples) as examples of a pseudo-intent that
 * starts it. A flow whose guard is `if: false` is left out: only `call` and `link` reach it, and Rasa's
 * LLM is not offered it either. Shipped out-of-scope examples that use the words of those flows are
 * left out (awayFrom).
 */
export function nluTrainingData(assistant: Assistant): NluData {
  const own = assistant.nlu;
  const ownIntents = new Set(own.intents.map((entry) => entry.intent));
  const repair = nluDataFromDocument(load(repairTrainingDataText(), { schema: CORE_SCHEMA }));
  // a project intent that triggers a repair pattern takes the shipped examples of that repair in its place
  const sameRepair = [...projectRepairIntents(assistant.flows.flows)].filter(([intent]) =>
    ownIntents.has(intent),
  );
  const replaced = new Map(sameRepair.map(([intent, shipped]) => [shipped, intent]));
  const shippedFor = (intent: string): IntentExamples | undefined => {
    const shipped = [...replaced].find(([, own]) => own === intent)?.[0];
    return shipped === undefined ? undefined : repair.intents.find((entry) => entry.intent === shipped);
  };
  const flowIntents: IntentExamples[] = assistant.flows.userFlows
    .filter((flow) => flow.nluTriggers.length === 0 && flow.description.trim() !== '' && !neverStarts(flow))
    .map((flow) => ({
      intent: `${FLOW_INTENT_PREFIX}${flow.id}`,
      examples: flowExamples(flow).map((text) => ({ text, entities: [] })),
    }));
  const domainWords = contentWords(
    flowIntents.flatMap((entry) => entry.examples.map((example) => example.text)),
  );
  return {
    intents: [
      ...own.intents.map((entry) => withExamplesOf(entry, shippedFor(entry.intent))),
      ...repair.intents
        .filter((entry) => !ownIntents.has(entry.intent) && !replaced.has(entry.intent))
        .map((entry) => (entry.intent === 'parley_out_of_scope' ? awayFrom(entry, domainWords) : entry)),
      ...flowIntents,
    ],
    synonyms: own.synonyms,
    regexes: own.regexes,
    lookups: own.lookups,
  };
}

/**
 * Words too common to say what an assistant is about: function words, and the words flow descriptions
 * use about themselves ("This flow helps the user ...").
 */
const COMMON_WORDS = new Set(
  (
    'the a an to of for in on at and or but my me i you your our is are was be been do does did can ' +
    'could would will shall should want wants need needs like please with this that these those it its ' +
    'from how what when where which who why about some any get make also just only them they their ' +
    'flow flows user users help helps assistant bot start started starts provide provides'
  ).split(' '),
);

function contentWords(texts: readonly string[]): Set<string> {
  return new Set(
    texts.flatMap((text) =>
      words(text)
        .filter((word) => word.length > 2 && !COMMON_WORDS.has(word))
        .map(porterStem),
    ),
  );
}

/**
 * The shipped out-of-scope examples without those that share a content word with the flows trained from
 * their descriptions: a flow with a handful of description texts cannot hold its ground against generic
 * off-topic requests that use its words ("find me a hotel" against "find a car at the dealership").
 */
function awayFrom(entry: IntentExamples, domain: ReadonlySet<string>): IntentExamples {
  return {
    ...entry,
    examples: entry.examples.filter(
      (example) => ![...contentWords([example.text])].some((word) => domain.has(word)),
    ),
  };
}

function withExamplesOf(entry: IntentExamples, shipped: IntentExamples | undefined): IntentExamples {
  if (!shipped) return entry;
  const known = new Set(entry.examples.map((example) => example.text.toLowerCase()));
  return {
    ...entry,
    examples: [
      ...entry.examples,
      ...shipped.examples.filter((example) => !known.has(example.text.toLowerCase())),
    ],
  };
}

function neverStarts(flow: Flow): boolean {
  const ast = flow.guard?.ast;
  return ast?.kind === 'constant' && ast.value === false;
}
