import { expect } from 'chai';
import {
  DROPPED_METADATA_LENGTH_KEY,
  MAX_STORED_METADATA_LENGTH,
  MAX_STORED_TEXT_LENGTH,
  ORIGINAL_TEXT_LENGTH_KEY,
  storedUserText,
} from '../../../src/core/text/stored-text.js';

const EMOJI = '\u{1F642}';

describe('how much of a user message a conversation keeps', () => {
  describe('the text', () => {
    it('keeps a text up to 4,096 characters whole, with the metadata as given', () => {
      const metadata = { locale: 'de' };
      for (const text of ['hello', '', 'x'.repeat(MAX_STORED_TEXT_LENGTH)]) {
        const stored = storedUserText(text, metadata);
        expect(stored.text).to.equal(text);
        expect(stored.metadata).to.equal(metadata);
      }
      expect(MAX_STORED_TEXT_LENGTH).to.equal(4_096);
    });

    it('cuts a longer text at the cap and notes its length in a copy of the metadata', () => {
      const metadata = { locale: 'de' };
      const stored = storedUserText('x'.repeat(MAX_STORED_TEXT_LENGTH + 1), metadata);
      expect(stored.text).to.equal('x'.repeat(MAX_STORED_TEXT_LENGTH));
      expect(stored.metadata).to.deep.equal({
        locale: 'de',
        original_text_length: MAX_STORED_TEXT_LENGTH + 1,
      });
      expect(metadata).to.deep.equal({ locale: 'de' });
      expect(ORIGINAL_TEXT_LENGTH_KEY).to.equal('original_text_length');
    });

    it('cuts at a limit it is given', () => {
      expect(storedUserText('abcdef', undefined, 4)).to.deep.equal({
        text: 'abcd',
        metadata: { original_text_length: 6 },
      });
      expect(storedUserText('abcd', undefined, 4)).to.deep.equal({ text: 'abcd', metadata: undefined });
    });

    it('never cuts a surrogate pair in half', () => {
      expect(storedUserText(`abc${EMOJI}z`, undefined, 4).text).to.equal('abc');
      expect(storedUserText(`ab${EMOJI}z`, undefined, 4).text).to.equal(`ab${EMOJI}`);
      expect(storedUserText(`abcd${EMOJI}`, undefined, 4).text).to.equal('abcd');
    });

    it('cuts before any UTF-16 high surrogate at the cap, and after a low one', () => {
      // U+D800 and U+DBFF bound the high surrogates; U+DC00 is the first low one
      expect(storedUserText('abc\ud800\udc00', undefined, 4).text).to.equal('abc');
      expect(storedUserText('abc\udbff\udfff', undefined, 4).text).to.equal('abc');
      expect(storedUserText('ab\ud800\udc00z', undefined, 4).text).to.equal('ab\ud800\udc00');
      expect(storedUserText('abc\ud7ffz', undefined, 4).text).to.equal('abc\ud7ff');
      expect(storedUserText('abc\udc00z', undefined, 4).text).to.equal('abc\udc00');
    });
  });

  describe('the metadata', () => {
    it('keeps metadata up to 16,384 characters of JSON as it is', () => {
      expect(MAX_STORED_METADATA_LENGTH).to.equal(16_384);
      // {"k":"…"} is 8 characters around the value
      const metadata = { k: 'm'.repeat(MAX_STORED_METADATA_LENGTH - 8) };
      expect(JSON.stringify(metadata)).to.have.length(MAX_STORED_METADATA_LENGTH);
      expect(storedUserText('hi', metadata).metadata).to.equal(metadata);
    });

    it('drops larger metadata and notes its size instead', () => {
      const metadata = { k: 'm'.repeat(MAX_STORED_METADATA_LENGTH - 7) };
      expect(storedUserText('hi', metadata)).to.deep.equal({
        text: 'hi',
        metadata: { dropped_metadata_length: MAX_STORED_METADATA_LENGTH + 1 },
      });
      expect(DROPPED_METADATA_LENGTH_KEY).to.equal('dropped_metadata_length');
    });

    it('notes both a cut text and dropped metadata', () => {
      const metadata = { k: 'm'.repeat(20_000) };
      expect(storedUserText('abcdef', metadata, 4)).to.deep.equal({
        text: 'abcd',
        metadata: { dropped_metadata_length: 20_008, original_text_length: 6 },
      });
    });

    it('has no metadata when the message had none', () => {
      expect(storedUserText('hi', undefined)).to.deep.equal({ text: 'hi', metadata: undefined });
    });
  });
});
