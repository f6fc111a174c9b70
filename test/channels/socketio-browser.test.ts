/**
 * The socket.io channel as a real web chat uses it: headless Chromium opens a page served from another
 * origin, loads the socket.io client from Parley, and the test types and clicks like a user.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import type { UserUttered } from '../../src/core/events/types.js';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';
import type { HeadlessChromium } from '../support/chromium.js';
import { startSocketBank } from './socketio-support.js';
import type { SocketBank } from './socketio-support.js';

const PAGE = readFileSync(new URL('../fixtures/web-chat/index.html', import.meta.url));

describe('socket.io channel in a real browser (headless Chromium, web chat page)', function () {
  this.timeout(60_000);
  let bank: SocketBank;
  let pageServer: Server;
  let pageUrl: string;
  let browser: HeadlessChromium | undefined;
  let context: BrowserContext;
  const pageErrors: string[] = [];

  before(async function () {
    skipWithoutChromium(this);
    bank = await startSocketBank('  session_persistence: true');
    // the page comes from another origin than Parley, as a widget embedded in a website does
    pageServer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    const { port } = pageServer.address() as AddressInfo;
    pageUrl = `http://127.0.0.1:${port}/index.html?server=${encodeURIComponent(bank.server.baseUrl)}`;
    browser = await launchChromium();
    context = browser.context;
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => (pageServer ? pageServer.close(resolve) : resolve(undefined)));
    await bank?.server.close();
  });

  async function open(page: Page): Promise<string> {
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(pageUrl);
    await page.waitForSelector('body[data-session]');
    return (await page.getAttribute('body', 'data-session'))!;
  }

  const botTexts = (page: Page): Promise<string[]> => page.locator('.message.bot .text').allTextContents();

  it('holds a conversation: typed text, bot messages and quick replies rendered, a reply clicked', async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    const sessionId = await open(page);
    expect(sessionId).to.match(/^[0-9a-f]{32}$/);

    await page.fill('#input', 'hi');
    await page.click('#send');
    await page.locator('.quick-reply').first().waitFor();
    expect(await botTexts(page)).to.deep.equal([
      'Hello!',
      'I am the Socket Bank assistant.',
      'Happy to help.',
      'Which account?',
    ]);
    expect(await page.locator('.quick-reply').allTextContents()).to.deep.equal(['Checking', 'Savings']);

    await page.click('.quick-reply:has-text("Savings")');
    await page.locator('.message.bot .text', { hasText: 'balance' }).waitFor();
    expect((await botTexts(page)).at(-1)).to.equal('Your savings balance is 100 coins.');
    expect(await page.locator('.message.user').allTextContents()).to.deep.equal(['hi', 'Savings']);
    expect(await page.locator('.quick-reply:disabled').count()).to.equal(2);

    const users = (await bank.trackerStore.loadAll(sessionId)).filter(
      (event): event is UserUttered => event.event === 'user',
    );
    expect(users.map((event) => [event.text, event.metadata, event.input_channel])).to.deep.equal([
      ['hi', { language: 'en' }, 'socketio'],
      ['/SetSlots(account_type=savings)', { language: 'en' }, 'socketio'],
    ]);
  });

  it('continues the same conversation after a page reload (session id kept by the page)', async () => {
    const page = context.pages()[0]!;
    const before = await page.getAttribute('body', 'data-session');
    await page.reload();
    await page.waitForSelector('body[data-session]');
    expect(await page.getAttribute('body', 'data-session')).to.equal(before);
    await page.fill('#input', 'bye');
    await page.click('#send');
    await page.locator('.message.bot .text', { hasText: 'Goodbye!' }).waitFor();
    const texts = (await bank.trackerStore.loadAll(before!)).flatMap((event) =>
      event.event === 'user' ? [event.text] : [],
    );
    expect(texts).to.deep.equal(['hi', '/SetSlots(account_type=savings)', 'bye']);
    expect(pageErrors).to.deep.equal([]);
  });
});
