/**
 * Headless Chromium for browser tests: Debian's `chromium` driven by playwright-core, never a
 * downloaded browser. Without a chromium binary the tests skip loudly on a laptop; under CI=true
 * that is a failure.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];

export const chromiumPath = (): string | null => CANDIDATES.find((p) => existsSync(p)) ?? null;

/** Where screenshots go (kept by CI as test artifacts). */
export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'test-artifacts', 'screenshots');

/**
 * Chromium honours only the last `--disable-features`, so this list repeats the features
 * playwright-core disables by default (`test/browser/browser-launch.test.ts` fails when they drift apart) and
 * adds the omnibox popups. Chromium builds those popups' pages for every new window, which is every
 * browser context a test opens: that cost a third of the browser's CPU per context, and the
 * browser suites are CPU-bound on two cores.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Call from a `before` hook with the suite's `this`: returns a browser, or skips the suite (and
 * fails under CI=true) when no chromium is installed.
 */
export async function launchBrowser(ctx: Mocha.Context): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    const message = 'Browser tests need Debian\'s chromium (apt-get install chromium); none found.';
    if (process.env.CI === 'true') throw new Error(message);
    console.warn(`\n  !!! SKIPPING browser tests: ${message}\n`);
    ctx.skip();
  }
  return chromium.launch({
    executablePath: executablePath!,
    headless: true,
    args: [
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 740 };
