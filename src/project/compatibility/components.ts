/**
 * What Parley does with each pipeline component and policy that Rasa's config.yml can name: the one
 * table that `parley data validate`, `parley run` and the docs read. Pure data.
 *
 * - `supported`: run with Rasa's meaning (options Parley reads are named in the note);
 * - `replaced`: accepted, and something of Parley’s does the same job (`replacement` says what);
 * - `ignored`: accepted, but nothing runs in its place;
 * - `unsupported`: Parley refuses to run the assistant with it.
 */
export type ComponentKind = 'component' | 'policy';
export type ComponentStatus = 'supported' | 'replaced' | 'ignored' | 'unsupported';

export interface ComponentEntry {
  readonly name: string;
  readonly kind: ComponentKind;
  readonly status: ComponentStatus;
  /** for `replaced`: what Parley runs instead */
  readonly replacement?: string;
  readonly note: string;
}

/** The note of a replaced component none of whose options Parley reads. */
export const OPTIONS_NOT_READ = 'Its options are not read.';

const INTENT_CLASSIFIER =
  'Parley’s offline intent classifier (TF-IDF word and character n-grams, an ensemble of logistic regression and small MLPs)';
const NGRAM_FEATURES = 'Parley’s TF-IDF word and character n-gram features';
const TOKENIZER = 'Parley’s own tokenizer (runs of letters and digits, punctuation marks)';
const ENTITY_EXTRACTORS =
  'Parley’s entity extractors (a trained tagger, the NLU data’s regexes, lookup tables and synonyms)';
const RULES_AND_STORIES = 'RulePolicy and MemoizationPolicy over the project’s rules and stories';

const component = (
  name: string,
  status: ComponentStatus,
  note: string,
  replacement?: string,
): ComponentEntry => ({
  name,
  kind: 'component',
  status,
  ...(replacement === undefined ? {} : { replacement }),
  note,
});

const policy = (
  name: string,
  status: ComponentStatus,
  note: string,
  replacement?: string,
): ComponentEntry => ({
  name,
  kind: 'policy',
  status,
  ...(replacement === undefined ? {} : { replacement }),
  note,
});

export const COMPONENTS: readonly ComponentEntry[] = [
  // CALM understanding
  component(
    'CompactLLMCommandGenerator',
    'supported',
    'Its `llm`, `user_input.max_characters` and `flow_retrieval` options are read; the prompt is Parley’s.',
  ),
  component(
    'SearchReadyLLMCommandGenerator',
    'supported',
    'As CompactLLMCommandGenerator, with the search-ready command syntax.',
  ),
  component(
    'SingleStepLLMCommandGenerator',
    'supported',
    'As CompactLLMCommandGenerator, with the single-step command syntax.',
  ),
  component('LLMCommandGenerator', 'supported', 'The pre-3.9 name of SingleStepLLMCommandGenerator.'),
  component(
    'MultiStepLLMCommandGenerator',
    'unsupported',
    '`parley run` refuses it; use CompactLLMCommandGenerator.',
  ),
  component(
    'NLUCommandAdapter',
    'supported',
    'Intents of the trained NLU pipeline start the flows whose `nlu_trigger` names them.',
  ),
  component('IntentBasedRouter', 'supported', 'Routes sessions between the NLU-based side and CALM.'),
  component('LLMBasedRouter', 'supported', 'Routes sessions between the NLU-based side and CALM.'),
  component('LLMIntentClassifier', 'replaced', 'No LLM is asked to classify intents.', INTENT_CLASSIFIER),
  // tokenizers and language models
  component('WhitespaceTokenizer', 'replaced', OPTIONS_NOT_READ, TOKENIZER),
  component('JiebaTokenizer', 'replaced', OPTIONS_NOT_READ, TOKENIZER),
  component('MitieTokenizer', 'replaced', OPTIONS_NOT_READ, TOKENIZER),
  component('SpacyTokenizer', 'replaced', OPTIONS_NOT_READ, TOKENIZER),
  component('SpacyNLP', 'replaced', 'No spaCy model is loaded.', NGRAM_FEATURES),
  component('MitieNLP', 'replaced', 'No MITIE model is loaded.', NGRAM_FEATURES),
  // featurizers
  component(
    'CountVectorsFeaturizer',
    'replaced',
    'Each one is a feature block: its `analyzer` (word, char, char_wb), `min_ngram`, `max_ngram`, `min_df` and `max_features` are read.',
    NGRAM_FEATURES,
  ),
  component('LexicalSyntacticFeaturizer', 'replaced', OPTIONS_NOT_READ, NGRAM_FEATURES),
  component(
    'RegexFeaturizer',
    'replaced',
    'The NLU data’s regexes feed the entity extractors, not the intent features.',
    NGRAM_FEATURES,
  ),
  component(
    'LanguageModelFeaturizer',
    'replaced',
    'No pretrained language model (BERT and the like) is loaded.',
    NGRAM_FEATURES,
  ),
  component('ConveRTFeaturizer', 'replaced', 'No pretrained model is loaded.', NGRAM_FEATURES),
  component('SpacyFeaturizer', 'replaced', 'No spaCy vectors are loaded.', NGRAM_FEATURES),
  component('MitieFeaturizer', 'replaced', 'No MITIE vectors are loaded.', NGRAM_FEATURES),
  // intent classifiers
  component(
    'DIETClassifier',
    'replaced',
    'Only its `random_seed` is read; entities come from Parley’s entity extractors.',
    INTENT_CLASSIFIER,
  ),
  component(
    'LogisticRegressionClassifier',
    'supported',
    'A single logistic regression over the n-gram features; `random_state` is the seed.',
  ),
  component('SklearnIntentClassifier', 'replaced', OPTIONS_NOT_READ, INTENT_CLASSIFIER),
  component('MitieIntentClassifier', 'replaced', OPTIONS_NOT_READ, INTENT_CLASSIFIER),
  component('KeywordIntentClassifier', 'replaced', OPTIONS_NOT_READ, INTENT_CLASSIFIER),
  component(
    'FallbackClassifier',
    'supported',
    '`threshold` and `ambiguity_threshold` are read (defaults 0.3 and 0.1).',
  ),
  // entity extraction
  component('RegexEntityExtractor', 'supported', 'The NLU data’s regexes and lookup tables.'),
  component('EntitySynonymMapper', 'supported', 'The NLU data’s synonyms.'),
  component('CRFEntityExtractor', 'replaced', OPTIONS_NOT_READ, ENTITY_EXTRACTORS),
  component('MitieEntityExtractor', 'replaced', OPTIONS_NOT_READ, ENTITY_EXTRACTORS),
  component('SpacyEntityExtractor', 'replaced', 'No spaCy model is loaded.', ENTITY_EXTRACTORS),
  component(
    'DucklingEntityExtractor',
    'replaced',
    'No Duckling server is called; its `url` and `dimensions` are not read.',
    'Parley’s built-in extractors of numbers, amounts of money, dates and e-mail addresses',
  ),
  component(
    'ResponseSelector',
    'ignored',
    'Retrieval intents are classified like other intents; no response is selected for them.',
  ),
  // policies
  policy('FlowPolicy', 'supported', 'Runs the flows.'),
  policy(
    'EnterpriseSearchPolicy',
    'supported',
    'Answers knowledge questions from a local search index of the project’s documents, built at `parley train`.',
  ),
  policy(
    'IntentlessPolicy',
    'ignored',
    'Not run: chitchat goes to `action_trigger_chitchat`, which answers with `utter_cannot_handle` instead of a generated reply.',
  ),
  policy('RulePolicy', 'supported', 'On the project’s rules, for sessions routed to the NLU-based side.'),
  policy(
    'MemoizationPolicy',
    'supported',
    'On the project’s stories, for sessions routed to the NLU-based side.',
  ),
  policy(
    'AugmentedMemoizationPolicy',
    'replaced',
    'Stories are matched on the latest states and, like Rasa’s augmentation, on fewer of them and from a story’s first message anywhere in a conversation.',
    'MemoizationPolicy',
  ),
  policy(
    'TEDPolicy',
    'replaced',
    'No transformer is trained; a turn no rule or story covers gets the fallback action after a user message, and the assistant listens after its own action.',
    RULES_AND_STORIES,
  ),
  policy('UnexpecTEDIntentPolicy', 'ignored', 'Not run: `action_unlikely_intent` is never predicted.'),
];

const BY_NAME = new Map(COMPONENTS.map((entry) => [entry.name, entry]));

/**
 * The entry for a config.yml `name`: a Rasa class name, or its module path (`rasa_plus.ml.X`,
 * `rasa.core.policies.X`); undefined for a name Parley does not know (a custom `module.Class`).
 */
export function componentEntry(name: string, kind: ComponentKind): ComponentEntry | undefined {
  const direct = BY_NAME.get(name);
  if (direct) return direct.kind === kind ? direct : undefined;
  const dot = name.lastIndexOf('.');
  if (dot < 0 || !/^rasa(_plus)?\./.test(name)) return undefined;
  const entry = BY_NAME.get(name.slice(dot + 1));
  return entry?.kind === kind ? entry : undefined;
}
