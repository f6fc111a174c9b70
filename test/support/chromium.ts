/**
 * Headless Chromium for browser tests: Debian's `chromium` (or CHROMIUM_PATH) driven by playwright-core.
 * Without it a suite skips with one line, unless REQUIRE_BROWSER is set (CI), where it fails.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Skips the suite (from its `before`) when there is no Chromium, or fails it under REQUIRE_BROWSER. */
export function skipWithoutChromium(suite: Mocha.Context): void {
  if (existsSync(CHROMIUM)) return;
  if (process.env['REQUIRE_BROWSER'])
    throw new Error(`REQUIRE_BROWSER is set but no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  console.log(
    `      skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
  );
  suite.skip();
}

export interface HeadlessChromium {
  readonly context: BrowserContext;
  /** closes the browser and removes its profile folder */
  close(): Promise<void>;
}

export async function launchChromium(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<HeadlessChromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'parley-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    ...(options.viewport ? { viewport: options.viewport } : {}),
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
