// Debian's chromium driven by playwright-core, the way a person uses the console: elements are
// found by role and accessible name. Without /usr/bin/chromium the browser tests fail (they do
// not skip): `.ci/run` installs it with apt-get.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** One browser with a fresh profile directory (a persistent context: Chromium's --user-data-dir). */
export async function launchChromium(
  baseURL: string,
  extraArgs: string[] = [],
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the browser tests`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'itinera-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    baseURL,
    viewport: { width: 1280, height: 860 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A new tab signed in to the console as `email`, without the cookies of an earlier session. */
export async function signedInPage(context: BrowserContext, email: string, password: string): Promise<Page> {
  await context.clearCookies();
  const page = await context.newPage();
  await page.goto('/admin/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ state: 'visible', timeout: 10_000 });
  return page;
}

/** Waits until the first element the locator finds is visible. */
export const visible = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 10_000 });
