/**
 * The inspector page in a real browser (headless Chromium): the bundled assistant served as
 * `parley inspect` serves it, with an API token the page carries; the test chats, clicks buttons,
 * watches the panels, switches conversations, restarts one and replays it. Screenshots go to
 * reports/inspector/ (git-ignored); any console error or page error fails the test.
 */
import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { launchChromium, skipWithoutChromium } from '../support/chromium.js';
import type { HeadlessChromium } from '../support/chromium.js';

const REPOSITORY = resolve(new URL('../..', import.meta.url).pathname);
const SCREENSHOTS = join(REPOSITORY, 'reports', 'inspector');
const TOKEN = 'inspector-test-token';

describe('inspector page in a real browser (headless Chromium, bundled assistant)', function () {
  this.timeout(120_000);
  let server: ParleyServer;
  let browser: HeadlessChromium | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  before(async function () {
    skipWithoutChromium(this);
    server = await startServer({
      location: { project: REPOSITORY },
      projectRoot: REPOSITORY,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      trackerStore: new MemoryTrackerStore(),
      enableApi: true,
      auth: { token: TOKEN },
      env: {},
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium({ viewport: { width: 1400, height: 1000 } });
    page = await browser.context.newPage();
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  afterEach(() => {
    expect(pageErrors, 'console and page errors').to.deep.equal([]);
  });

  const testId = (id: string) => `[data-testid="${id}"]`;
  const live = (id: string) => `${testId('state-panels')} ${testId(id)}`;
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  async function say(text: string): Promise<void> {
    const before = await page.locator(testId('user-message')).count();
    await page.fill(testId('message'), text);
    await page.click(testId('send'));
    await page.locator(testId('user-message')).nth(before).waitFor();
  }

  async function clickChoice(title: string): Promise<void> {
    const before = await page.locator(testId('user-message')).count();
    await page.locator(testId('bot-button'), { hasText: title }).last().click();
    await page.locator(testId('user-message')).nth(before).waitFor();
  }

  const slotValue = (name: string) =>
    page
      .locator(`${live('slots')} tr`, { has: page.locator('td', { hasText: new RegExp(`^${name}$`) }) })
      .locator('td')
      .nth(1);

  let firstConversation = '';

  async function waitForTitle(wanted: (title: string) => boolean): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (wanted((await page.textContent(testId('conversation-id'))) ?? '')) return;
      await page.waitForTimeout(50);
    }
    throw new Error('the conversation shown did not change');
  }

  it('chats a multi-turn flow with buttons and shows the stack, slots and active step change', async () => {
    await page.goto(`${server.baseUrl}/inspect?token=${TOKEN}`);
    await page.waitForSelector(testId('conversation-id'));
    firstConversation = (await page.textContent(testId('conversation-id'))) ?? '';
    expect(firstConversation).to.match(/^inspect-/);

    await say('/block_card');
    await page.locator(testId('bot-message'), { hasText: 'four digits' }).first().waitFor();
    expect(await page.textContent(live('active-flow'))).to.equal('pattern_collect_information');
    expect(await page.textContent(live('stack'))).to.contain('block_card');
    const source = await page.locator(testId('command-source')).first().textContent();
    expect(source).to.contain('direct payload /block_card');

    await say('1234');
    await page.locator(testId('bot-message'), { hasText: 'What happened to the card?' }).waitFor();
    expect(await slotValue('card_last_digits').textContent()).to.equal('1234');

    await clickChoice('I lost it');
    await page.locator(testId('bot-message'), { hasText: "can't be undone" }).waitFor();
    expect(await slotValue('block_reason').textContent()).to.equal('lost');
    expect(await page.textContent(live('stack'))).to.contain('block_card');
    const steps = await page.locator(`${testId('turn')} [data-kind="step"]`).allTextContents();
    expect(steps.join('\n')).to.contain('block_card');
    // the flow diagram of the user flow, its current step and the path taken highlighted
    const userStep = await page.locator(`${live('user-flow')} .step`).textContent();
    await page.locator(`${testId('diagram')} svg[data-flow-id="block_card"]`).waitFor();
    const current = page.locator(`${testId('diagram')} .node.current`);
    expect(await current.getAttribute('data-step-id')).to.equal(userStep);
    expect(await page.locator(`${testId('diagram')} .node.visited`).count()).to.be.greaterThan(1);
    await shot('1-block-card');
    await page.locator(testId('diagram')).screenshot({ path: join(SCREENSHOTS, '1-block-card-diagram.png') });
  });

  it('switches between conversations from the stored list', async () => {
    await page.click(testId('new-conversation'));
    await waitForTitle((title) => title !== firstConversation);
    await say('/check_balance');
    await clickChoice('Savings');
    await page.locator(testId('conversation')).nth(1).waitFor();
    expect(await page.locator(testId('conversation')).count()).to.equal(2);
    await shot('2-second-conversation');
    await page.locator(testId('conversation'), { hasText: firstConversation }).click();
    await waitForTitle((title) => title === firstConversation);
    await page.locator(testId('bot-message'), { hasText: "can't be undone" }).waitFor();
    expect(await page.textContent(live('stack'))).to.contain('block_card');
  });

  it('restarts a conversation and replays it step by step', async () => {
    await page.click(testId('restart'));
    await page.locator(live('stack'), { hasText: 'The stack is empty.' }).waitFor();
    expect(await slotValue('block_reason').textContent()).to.equal('—');
    await page.click(testId('replay-first'));
    expect(await page.textContent(testId('replay-index'))).to.match(/^event 1 of \d+$/);
    const events: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      await page.click(testId('replay-next'));
      events.push((await page.textContent(testId('replay-event'))) ?? '');
    }
    expect(events).to.include('user: /block_card');
    await page.click(testId('replay-last'));
    expect(await page.textContent(testId('replay-event'))).to.equal('restart');
    await shot('3-restarted-replay');
  });
});
