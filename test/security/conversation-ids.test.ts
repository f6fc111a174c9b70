/**
 * Finding: NUL and bidirectional-override characters are accepted in conversation ids. A NUL cannot
 * be stored in PostgreSQL text, a newline forges log lines, and a right-to-left override makes
 * `user-1\u202E2-tnuocca` show as another id on an operator's screen. Every id a caller chooses (a
 * channel's sender or session id, the HTTP API's conversation id, A2A context, message and task ids)
 * now refuses control characters, bidi formatting characters, unpaired surrogates, blank ids and ids
 * over their cap (255 characters; A2A: contextId 128, messageId and taskId 256).
 */
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { conversationIdProblem, identifierProblem } from '../../src/core/text/identifiers.js';
import { send } from '../a2a/hardening-support.js';
import { ChatClient, settle } from '../channels/socketio-support.js';
import {
  API_TOKEN,
  callAs,
  restMessage,
  startSecureServer,
  stillServes,
  trackerOf,
  userTexts,
} from './support.js';

/** one character of each refused class */
const REFUSED: readonly (readonly [string, string])[] = [
  ['a NUL', '\u0000'],
  ['a line feed', '\n'],
  ['a carriage return', '\r'],
  ['the C0 unit separator U+001F', '\u001f'],
  ['DEL', '\u007f'],
  ['the C1 control U+0080', '\u0080'],
  ['the C1 next line U+0085', '\u0085'],
  ['the C1 control U+009F', '\u009f'],
  ['the Arabic letter mark U+061C', '\u061c'],
  ['the left-to-right mark U+200E', '\u200e'],
  ['the right-to-left mark U+200F', '\u200f'],
  ['the line separator U+2028', '\u2028'],
  ['the paragraph separator U+2029', '\u2029'],
  ['the left-to-right embedding U+202A', '\u202a'],
  ['the right-to-left embedding U+202B', '\u202b'],
  ['the pop directional formatting U+202C', '\u202c'],
  ['the left-to-right override U+202D', '\u202d'],
  ['the right-to-left override U+202E', '\u202e'],
  ['the left-to-right isolate U+2066', '\u2066'],
  ['the right-to-left isolate U+2067', '\u2067'],
  ['the first strong isolate U+2068', '\u2068'],
  ['the pop directional isolate U+2069', '\u2069'],
  ['the soft hyphen U+00AD', '\u00ad'],
  ['the zero-width space U+200B', '\u200b'],
  ['the word joiner U+2060', '\u2060'],
  ['the invisible separator U+2063', '\u2063'],
  ['the byte order mark U+FEFF', '\ufeff'],
  ['the zero-width non-joiner U+200C', '\u200c'],
  ['the Mongolian vowel separator U+180E', '\u180e'],
  ['the inhibit symmetric swapping U+206A', '\u206a'],
  ['the interlinear annotation anchor U+FFF9', '\ufff9'],
  ['the language tag U+E0001', '\u{e0001}'],
  ['the tag letter A U+E0041 (invisible text)', '\u{e0041}'],
  ['the variation selector U+FE00', '\ufe00'],
  ['the Hangul filler U+3164', '\u3164'],
  ['the combining grapheme joiner U+034F', '\u034f'],
  ['an unpaired high surrogate', '\ud800'],
  ['an unpaired low surrogate', '\udfff'],
  ['a surrogate pair in the wrong order', '\udc00\ud800'],
];

const POSITIONS: readonly (readonly [string, (bad: string) => string])[] = [
  ['at the start', (bad) => `${bad}user-1`],
  ['in the middle', (bad) => `user${bad}-1`],
  ['at the end', (bad) => `user-1${bad}`],
];

const ACCEPTED: readonly (readonly [string, string])[] = [
  ['plain ASCII', 'user-42_a.b'],
  ['an e-mail address', 'user@example.com'],
  ['accented Latin letters', 'über-ünïcödé'],
  ['Arabic letters', 'مستخدم-٤٢'],
  ['Hebrew letters', 'משתמש-42'],
  ['an emoji (a surrogate pair)', 'user-🙂'],
  ['an emoji at both ends', '🙂user🙂'],
  ['an emoji sequence joined by ZWJ', 'family-\u{1F469}\u200d\u{1F469}\u200d\u{1F467}'],
  ['an emoji with its presentation selector', 'heart-\u2764\ufe0f'],
  ['inner spaces', 'Ann Smith'],
  ['exactly 255 characters', 'x'.repeat(255)],
];

describe('Conversation ids: what identifierProblem refuses', () => {
  for (const [name, bad] of REFUSED)
    for (const [position, place] of POSITIONS)
      it(`refuses ${name} ${position}`, () => {
        const id = place(bad);
        expect(conversationIdProblem(id)).to.be.a('string');
        expect(identifierProblem(id, 1_000)).to.be.a('string');
      });

  for (const blank of ['', ' ', '   ', '\u3000'])
    it(`refuses the blank id ${JSON.stringify(blank)}`, () => {
      expect(conversationIdProblem(blank)).to.be.a('string');
    });

  it('refuses a conversation id over 255 characters', () => {
    expect(conversationIdProblem('x'.repeat(256))).to.match(/at most 255/);
  });

  it('refuses an id over the cap it is given, and accepts one at the cap', () => {
    expect(identifierProblem('c'.repeat(129), 128)).to.match(/at most 128/);
    expect(identifierProblem('c'.repeat(128), 128)).to.equal(undefined);
  });

  for (const [name, id] of ACCEPTED)
    it(`accepts ${name}`, () => {
      expect(conversationIdProblem(id)).to.equal(undefined);
    });
});

describe('Security: every edge refuses unusable conversation ids', function () {
  this.timeout(60_000);
  let server: ParleyServer;

  before(async () => {
    server = await startSecureServer();
  });
  after(() => server.close());

  /** a fresh id, and the same id with `bad` in its middle */
  const pair = (bad: string) => {
    const plain = `look-${crypto.randomUUID()}`;
    return { plain, bad: `${plain.slice(0, 8)}${bad}${plain.slice(8)}` };
  };

  it('refuses REST senders holding each refused character with 400 and stores nothing', async () => {
    for (const [name, character] of REFUSED) {
      const ids = pair(character);
      const answer = await restMessage(server, { sender: ids.bad, message: '/transfer_money' });
      expect(answer.status, name).to.equal(400);
      expect(answer.body, name).to.deep.include({ reason: 'BadRequest' });
      expect(userTexts(await trackerOf(server, ids.plain)), name).to.deep.equal([]);
    }
    expect(await stillServes(server)).to.equal(true);
  });

  it('refuses blank REST senders and senders over 255 characters with 400', async () => {
    for (const sender of ['', '  ', 'x'.repeat(256)]) {
      const answer = await restMessage(server, { sender, message: 'hello' });
      expect(answer.status).to.equal(400);
      expect(answer.body).to.deep.include({ reason: 'BadRequest' });
    }
    const longest = await restMessage(server, { sender: 'y'.repeat(255), message: 'hello' });
    expect(longest.status).to.equal(200);
  });

  it('refuses such ids in the HTTP API with 400 and stores nothing', async () => {
    const api = (id: string, path = '/tracker') =>
      `${server.baseUrl}/conversations/${encodeURIComponent(id)}${path}?token=${API_TOKEN}`;
    // a lone surrogate cannot be percent-encoded as UTF-8; its WTF-8 bytes are refused as well
    const unencodable = `${server.baseUrl}/conversations/ab%ED%A0%80cd/tracker?token=${API_TOKEN}`;
    const undecodable = await fetch(unencodable);
    expect(undecodable.status).to.equal(400);
    expect(((await undecodable.json()) as { message: string }).message).to.match(
      /URL has an invalid percent-encoding/,
    );
    for (const [name, character] of REFUSED.filter(([, text]) => !/[\ud800-\udfff]/.test(text))) {
      const ids = pair(character);
      const read = await fetch(api(ids.bad));
      expect(read.status, name).to.equal(400);
      expect(await read.json(), name).to.deep.include({ reason: 'BadRequest' });
      const write = await fetch(api(ids.bad, '/messages'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'hello', sender: 'user' }),
      });
      expect(write.status, name).to.equal(400);
      expect(userTexts(await trackerOf(server, ids.plain)), name).to.deep.equal([]);
    }
    expect((await fetch(api('z'.repeat(256)))).status).to.equal(400);
    expect(await stillServes(server)).to.equal(true);
  });

  it('refuses A2A ids with control or bidi characters or over their caps with -32602 naming the field', async () => {
    const refused: readonly (readonly [Record<string, unknown>, string])[] = [
      [{ contextId: 'ctx\u202e-1' }, 'message.contextId'],
      [{ contextId: 'ctx\u0000-1' }, 'message.contextId'],
      [{ contextId: 'c'.repeat(129) }, 'message.contextId'],
      [{ messageId: 'm'.repeat(257) }, 'message.messageId'],
      [{ messageId: 'msg\u2066-1' }, 'message.messageId'],
      [{ taskId: 'task\u202e-1' }, 'message.taskId'],
    ];
    for (const [fields, field] of refused) {
      const answer = await callAs(server, 'orchestrator', send('/transfer_money', fields));
      expect(answer.body['error'], field).to.deep.include({ code: -32602 });
      expect((answer.body['error'] as { data: unknown }).data, field).to.deep.include({ field });
    }
    const lookAlike = await trackerOf(server, 'a2a:orchestrator:ctx-1');
    expect(userTexts(lookAlike)).to.deep.equal([]);
  });

  it('accepts A2A ids at their caps', async () => {
    const answer = await callAs(
      server,
      'orchestrator',
      send('/transfer_money', { contextId: 'c'.repeat(128), messageId: 'm'.repeat(256) }),
    );
    expect(answer.body['result']).to.deep.include({ contextId: 'c'.repeat(128) });
  });

  it('refuses tasks/get with an id over 256 characters with -32602', async () => {
    const answer = await callAs(server, 'orchestrator', {
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/get',
      params: { id: 't'.repeat(257) },
    });
    expect(answer.body['error']).to.deep.include({ code: -32602 });
    expect((answer.body['error'] as { data: unknown }).data).to.deep.include({ field: 'id' });
    expect(await stillServes(server)).to.equal(true);
  });

  it('gives a socket.io client asking for a session id with U+202E a fresh id instead', async () => {
    const ids = pair('\u202e');
    const client = new ChatClient(server.baseUrl);
    try {
      await client.connected();
      const issued = await client.requestSession(ids.bad);
      expect(issued).to.not.equal(ids.bad);
      expect(issued).to.not.equal(ids.plain);
      expect(conversationIdProblem(issued)).to.equal(undefined);
      // a message naming the refused id as its session is dropped, not run in any conversation
      client.socket.emit('user_uttered', { message: '/transfer_money', session_id: ids.bad });
      await settle();
      expect(client.received).to.deep.equal([]);
      expect(await client.say({ message: '/transfer_money', session_id: issued }, 1)).to.have.length(1);
    } finally {
      client.close();
    }
    expect(userTexts(await trackerOf(server, ids.plain))).to.deep.equal([]);
    expect(await stillServes(server)).to.equal(true);
  });
});
