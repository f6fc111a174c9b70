import { expect } from 'chai';
import {
  A2A_CONVERSATION_PREFIX,
  MAX_CONVERSATION_ID_LENGTH,
  channelConversationIdProblem,
  conversationIdProblem,
  identifierProblem,
  isA2aConversationId,
  isWellFormedText,
} from '../../../src/core/text/identifiers.js';

const EMOJI = '\u{1F642}';

describe('ids chosen by callers (conversation, A2A context, message and task ids)', () => {
  it('accepts ordinary text ids, emoji sequences and inner spaces', () => {
    for (const id of [
      'user-42_a.b',
      'über-ünïcödé',
      'مستخدم-٤٢',
      `user-${EMOJI}`,
      'family-\u{1F469}\u200d\u{1F469}\u200d\u{1F467}',
      'heart-\u2764\ufe0f',
      'text-\u2764\ufe0e',
      'Ann Smith',
    ])
      expect(identifierProblem(id, 100), id).to.equal(undefined);
  });

  it('refuses a blank id', () => {
    for (const id of ['', ' ', '\t ', '\u3000'])
      expect(identifierProblem(id, 100), JSON.stringify(id)).to.equal('must be a non-empty string');
  });

  it('refuses an id longer than its cap and accepts one at the cap', () => {
    expect(identifierProblem('c'.repeat(129), 128)).to.equal('must be at most 128 characters');
    expect(identifierProblem('c'.repeat(128), 128)).to.equal(undefined);
  });

  it('refuses unpaired surrogates, which a store would keep as U+FFFD', () => {
    for (const id of ['a\ud800', '\udfffb', 'a\udc00\ud800b'])
      expect(identifierProblem(id, 100), JSON.stringify(id)).to.equal('must be well-formed Unicode text');
  });

  it('refuses control, bidirectional and invisible formatting characters', () => {
    for (const character of [
      '\u0000',
      '\n',
      '\u007f',
      '\u0085',
      '\u202e',
      '\u2066',
      '\u200b',
      '\ufeff',
      '\u2028',
    ])
      expect(identifierProblem(`user${character}1`, 100), JSON.stringify(character)).to.equal(
        'must not contain control characters, or bidirectional or invisible formatting characters',
      );
  });

  it('tells whether text has an unpaired surrogate', () => {
    expect(isWellFormedText(`ok ${EMOJI}`)).to.equal(true);
    expect(isWellFormedText('')).to.equal(true);
    expect(isWellFormedText('\ud800x')).to.equal(false);
    expect(isWellFormedText('x\udc00')).to.equal(false);
  });

  it("caps a conversation id at 255 characters, Rasa's sender_id column", () => {
    expect(MAX_CONVERSATION_ID_LENGTH).to.equal(255);
    expect(conversationIdProblem('x'.repeat(255))).to.equal(undefined);
    expect(conversationIdProblem('x'.repeat(256))).to.equal('must be at most 255 characters');
    expect(conversationIdProblem('a\nb')).to.be.a('string');
  });

  describe("the A2A server's conversations", () => {
    it('are the ids under a2a:', () => {
      expect(isA2aConversationId(`${A2A_CONVERSATION_PREFIX}caller:ctx-1`)).to.equal(true);
      expect(isA2aConversationId('a2a:')).to.equal(true);
      expect(isA2aConversationId('user-a2a:1')).to.equal(false);
      expect(isA2aConversationId('A2A:caller:ctx')).to.equal(false);
    });

    it('cannot be addressed by a channel', () => {
      expect(channelConversationIdProblem('a2a:caller:ctx-1')).to.equal(
        "must not start with 'a2a:': those conversations belong to the A2A server",
      );
    });

    it('leave a channel every other usable id, refused for the same problems as any id', () => {
      expect(channelConversationIdProblem('user-1')).to.equal(undefined);
      expect(channelConversationIdProblem('user\u202e1')).to.be.a('string');
      expect(channelConversationIdProblem('x'.repeat(256))).to.equal('must be at most 255 characters');
    });
  });
});
