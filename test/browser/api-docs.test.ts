/**
 * The API reference page (/docs/api) in headless Chromium: swagger-ui, served by the gateway
 * itself, renders the document's operations under the page's CSP without a single violation and
 * without any request leaving the gateway.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { DESKTOP, PHONE, launchBrowser, screenshot } from '../support/browser';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';

describe('API reference page in a browser', function () {
  this.timeout(60_000);
  let browser: Browser;
  let t: TestGateway;
  before(async function () {
    browser = await launchBrowser(this);
    t = await startTestGateway({ kind: 'sqlite' });
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`Given the page on a ${name}, then it lists the operations of every API, with no CSP violation and no request elsewhere`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const violations: string[] = [];
      const foreign: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
      });
      page.on('request', (request) => {
        if (!request.url().startsWith(t.baseUrl) && !request.url().startsWith('data:')) foreign.push(request.url());
      });
      await page.goto(`${t.baseUrl}/docs/api`);
      await page.locator('.opblock-summary-path', { hasText: '/api/v1/session' }).first().waitFor();
      for (const path of ['/post', '/api/v1/payment/status', '/admin/callbacks', '/health']) {
        expect(await page.locator('.opblock-summary-path', { hasText: path }).count(), path).to.be.greaterThan(0);
      }
      await screenshot(page, `api-docs-${name}`);
      expect(violations).to.deep.equal([]);
      expect(foreign).to.deep.equal([]);
      await context.close();
    });
  }
});
