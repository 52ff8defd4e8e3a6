import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { launchBrowser, PLAYWRIGHT_DISABLED_FEATURES } from '../support/browser';

/** The command lines of this process's child processes that run chromium. */
function chromiumChildren(): string[][] {
  const found: string[][] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // The parent pid is the second field after the parenthesised command name.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (args.some((arg) => arg.includes('chromium'))) found.push(args);
    } catch {
      // the process ended while the list was read
    }
  }
  return found;
}

describe('The browser the browser suites drive', () => {
  it('keeps every feature playwright-core disables by default (Chromium honours only the last --disable-features)', async function () {
    const browser = await launchBrowser(this);
    try {
      const [args] = chromiumChildren().filter((a) => a.some((arg) => arg.startsWith('--remote-debugging-pipe')));
      expect(args, 'the browser process').to.not.equal(undefined);
      const lists = args.filter((arg) => arg.startsWith('--disable-features=')).map((arg) => arg.slice('--disable-features='.length).split(','));
      expect(lists.length, args.join(' ')).to.be.at.least(2);
      const [defaults, effective] = [lists[0], lists[lists.length - 1]];
      expect(effective).to.include.members(defaults);
      expect(PLAYWRIGHT_DISABLED_FEATURES).to.have.members(defaults);
    } finally {
      await browser.close();
    }
  });

  it('opens a browser context without the omnibox popup pages Chromium would build for every window', async function () {
    const browser = await launchBrowser(this);
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto('data:text/html,<p>a page</p>');
      const session = await browser.newBrowserCDPSession();
      const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: Array<{ type: string; url: string }> };
      expect(targetInfos.map((t) => t.url)).to.include('data:text/html,<p>a page</p>');
      expect(targetInfos.filter((t) => t.url.startsWith('chrome://omnibox-popup'))).to.deep.equal([]);
    } finally {
      await browser.close();
    }
  });
});
