import { expect } from 'chai';
import { chunkDocuments, faqPairs, passages, splitText } from '../../src/knowledge/chunks.js';
import { postProcessCitations } from '../../src/knowledge/citations.js';
import { KnowledgeIndex, minimumMatches } from '../../src/knowledge/knowledge-index.js';
import { queryTerms, termProcessor } from '../../src/knowledge/terms.js';
import { RETURNS_DOC, SHIPPING_DOC, STORE_FAQ, WARRANTY_DOC } from '../support/knowledge-project.js';

const DOCUMENTS = [
  { source: 'docs/shipping.txt', text: SHIPPING_DOC },
  { source: 'docs/returns.txt', text: RETURNS_DOC },
  { source: 'docs/warranty.txt', text: WARRANTY_DOC },
  { source: 'docs/faq/store.txt', text: STORE_FAQ },
];

describe('knowledge documents to passages', () => {
  it('cuts long text into chunks of at most 1000 characters that overlap by at most 20', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog near the river bank. ';
    const chunks = splitText(sentence.repeat(60));
    expect(chunks.length).to.be.greaterThan(3);
    for (const chunk of chunks) expect(chunk.length).to.be.at.most(1000);
    const [first, second] = chunks;
    // the second chunk starts with the last words of the first, no more than 20 characters of them
    const shared = [...Array(21).keys()].filter((k) => k > 0 && first!.endsWith(second!.slice(0, k)));
    expect(Math.max(...shared)).to.be.within(5, 20);
    expect(second!.startsWith('brown fox jumps')).to.equal(true);
    expect(chunks.join(' ').replace(/\s+/gu, ' ').length).to.be.at.least(sentence.repeat(60).trim().length);
  });

  it('gives one passage per paragraph, a heading joined to the paragraph after it', () => {
    const found = passages(WARRANTY_DOC);
    expect(found).to.have.length(2);
    expect(found[0]).to.match(/^Warranty\nOur steel frames/);
    expect(found[1]).to.match(/^The warranty does not cover/);
  });

  it('reads a file of Q:/A: paragraphs as pairs, and any other file as text', () => {
    expect(faqPairs(STORE_FAQ)?.map((pair) => pair.question)).to.deep.equal([
      'When is the shop open?',
      'Can I test ride a bicycle before buying it?',
      'Do you repair bicycles bought elsewhere?',
    ]);
    expect(faqPairs(STORE_FAQ)?.[0]?.answer).to.equal(
      'The shop in Ghent is open Tuesday to Saturday from 10:00 to 18:00. It is closed on Sundays and Mondays.',
    );
    expect(faqPairs(`${STORE_FAQ}\n\nA closing remark that is no pair.`)).to.equal(undefined);
    expect(faqPairs(SHIPPING_DOC)).to.equal(undefined);
  });

  it('numbers the passages of all documents and keeps each one’s source', () => {
    const chunks = chunkDocuments(DOCUMENTS);
    expect(chunks.map((chunk) => chunk.id)).to.deep.equal(chunks.map((_chunk, index) => index));
    expect(chunks.filter((chunk) => chunk.source === 'docs/faq/store.txt')).to.have.length(3);
    expect(chunks.filter((chunk) => chunk.answer !== undefined)).to.have.length(3);
  });
});

describe('the terms of the knowledge index', () => {
  const english = termProcessor('en');

  it('drops English function words and folds plurals and -ing/-ed forms together', () => {
    expect(queryTerms('How do I get refunds for the returned bicycles?', english)).to.deep.equal([
      'refund',
      'return',
      'bicycl',
    ]);
    expect(english('shipping')).to.equal(english('shipped')).and.to.equal(english('ships'));
    expect(english('policies')).to.equal(english('policy'));
  });

  it('keeps every word of other languages, lower-cased', () => {
    expect(queryTerms('Wie lange dauert der Versand?', termProcessor('de'))).to.deep.equal([
      'wie',
      'lange',
      'dauert',
      'der',
      'versand',
    ]);
  });
});

describe('searching the knowledge index', () => {
  const index = KnowledgeIndex.build(chunkDocuments(DOCUMENTS), { language: 'en', source: './docs' });

  it('ranks the passage that answers the question first', () => {
    const cases: [string, RegExp][] = [
      ['Do you deliver to Germany?', /^We ship to the Netherlands/],
      ['When will my refund be paid?', /^Refunds are paid/],
      ['Are tyres and brake pads covered by the warranty?', /^The warranty does not cover wear parts/],
      ['Can I test ride a bike?', /^Q: Can I test ride/],
      ['Do you fix bicycles from other brands?', /^Q: Do you repair bicycles/],
    ];
    for (const [question, expected] of cases)
      expect(index.search(question)[0]?.chunk.text, question).to.match(expected);
  });

  it('finds nothing for a question that shares too few words with every passage', () => {
    expect(index.search('Who won the football match yesterday?')).to.deep.equal([]);
    expect(index.search('What is the weather like in Paris?')).to.deep.equal([]);
    expect(index.search('the and of')).to.deep.equal([]);
  });

  it('asks for one matching word of one or two, two of three to five, a third of longer questions', () => {
    expect([1, 2, 3, 5, 6, 9, 10].map(minimumMatches)).to.deep.equal([1, 1, 2, 2, 2, 3, 4]);
  });

  it('takes vector_store.threshold as the share of the question’s words a passage must contain', () => {
    const question = 'steel frames lifetime warranty owner receipt';
    expect(index.search(question, { threshold: 0.5 })[0]?.chunk.source).to.equal('docs/warranty.txt');
    expect(index.search(question, { threshold: 0.9 })).to.deep.equal([]);
  });

  it('returns at most four passages by default', () => {
    expect(
      index.search('shipping delivery returns refund warranty frames shop days euros').length,
    ).to.be.at.most(4);
  });

  it('survives the model archive: the JSON form searches the same', () => {
    const copy = KnowledgeIndex.fromJson(JSON.parse(JSON.stringify(index.toJson())));
    const question = 'How much does international shipping cost?';
    expect(copy.search(question).map((hit) => hit.chunk.id)).to.deep.equal(
      index.search(question).map((hit) => hit.chunk.id),
    );
    expect(() => KnowledgeIndex.fromJson({ ...index.toJson(), version: 7 as 1 })).to.throw(/format 7/);
  });
});

describe('searching a knowledge base in a language without a stop-word list', () => {
  const paragraphs = [
    'Der Versand nach Deutschland dauert drei bis fünf Werktage und kostet sechs Euro. Ab hundertfünfzig Euro ist er für die Kunden kostenlos.',
    'Die Rücksendung ist innerhalb von dreißig Tagen kostenlos, wenn die Ware unbenutzt ist. Das Etikett schicken wir per E-Mail an den Kunden.',
    'Die Garantie für den Rahmen gilt ein Leben lang, für die Laufräder zwei Jahre. Verschleißteile wie die Reifen sind von der Garantie ausgenommen.',
    'Der Laden in Gent ist von Dienstag bis Samstag von zehn bis achtzehn Uhr geöffnet. Am Sonntag und am Montag bleibt die Tür geschlossen.',
    'Die Werkstatt repariert Fahrräder aller Marken, wenn man einen Termin vereinbart. Die Termine werden eine Woche im Voraus geplant.',
    'Die Bezahlung ist mit der Karte, per Überweisung oder in bar im Laden möglich. Eine Ratenzahlung bieten wir für die Kunden nicht an.',
    'Eine Probefahrt mit dem Fahrrad dauert eine halbe Stunde und ist kostenlos. Als Pfand genügt der Ausweis, den die Kunden an der Kasse zeigen.',
    'Die Erstattung kommt innerhalb von fünf Werktagen auf das Konto des Kunden. Sie geht immer an die Zahlungsart, mit der die Bestellung bezahlt wurde.',
  ];
  const index = KnowledgeIndex.build(
    chunkDocuments([{ source: 'docs/laden.txt', text: paragraphs.join('\n\n') }]),
    { language: 'de', source: './docs' },
  );

  it('finds the passage by the words that carry the question', () => {
    expect(index.search('Wie lange dauert der Versand?')[0]?.chunk.text).to.match(/^Der Versand/);
    expect(index.search('Wann ist der Laden geöffnet?')[0]?.chunk.text).to.match(/^Der Laden in Gent/);
  });

  it('does not count words found in more than half of the passages ("der", "die") towards relevance', () => {
    expect(index.search('Wer hat gestern das Spiel der Mannschaft gewonnen?')).to.deep.equal([]);
    expect(index.search('Wo ist die Katze?')).to.deep.equal([]);
  });
});

describe('citations of an LLM answer', () => {
  it('leaves an answer without a Sources: section as it is (trimmed)', () => {
    expect(postProcessCitations('  Plain answer.  ')).to.equal('Plain answer.');
  });

  it('drops citations of sources that are not listed', () => {
    expect(postProcessCitations('A fact. [4] Another. [1]\nSources:\n[1] docs/a.txt')).to.equal(
      'A fact. Another. [1]\nSources:\n[1] docs/a.txt',
    );
  });
});
