/**
 * The hosted payment page's colours, light and dark: the stylesheet follows the payer's
 * `prefers-color-scheme` like the gateway's other hosted pages, and in both schemes every pair of
 * colours the page puts together is readable (WCAG 2: text at least 4.5:1, field borders 3:1).
 */
import { expect } from 'chai';
import { CHECKOUT_PAGE_CSS } from '../../src/api/checkout-page/page-styles';

/** The custom properties of the first `:root { … }` in `css`. */
function rootVariables(css: string): Record<string, string> {
  const block = /:root\s*\{([^}]*)\}/.exec(css);
  if (!block) return {};
  return Object.fromEntries([...block[1].matchAll(/(--[a-z-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
}

/** The body of `@media (prefers-color-scheme: dark) { … }`, or null. */
function darkBlock(css: string): string | null {
  const start = css.search(/@media\s*\(prefers-color-scheme:\s*dark\)\s*\{/);
  if (start < 0) return null;
  let depth = 0;
  for (let i = css.indexOf('{', start); i < css.length; i++) {
    if (css[i] === '{') depth++;
    if (css[i] === '}' && --depth === 0) return css.slice(css.indexOf('{', start) + 1, i);
  }
  return null;
}

/** WCAG 2 relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = m.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Foreground, background, least ratio: every pairing the stylesheet makes. */
const PAIRS: ReadonlyArray<[string, string, number]> = [
  ['--fg', '--bg', 4.5],
  ['--fg', '--card', 4.5],
  ['--fg', '--summary', 4.5],
  ['--muted', '--bg', 4.5],
  ['--muted', '--card', 4.5],
  ['--muted', '--summary', 4.5],
  ['--placeholder', '--card', 4.5],
  ['--accent', '--card', 4.5],
  ['--accent-fg', '--accent', 4.5],
  ['--accent-fg', '--accent-dark', 4.5],
  ['--error', '--card', 4.5],
  ['--error', '--error-bg', 4.5],
  ['--fg', '--error-bg', 4.5],
  ['--field', '--card', 3],
];

describe('hosted payment page colours', () => {
  const light = rootVariables(CHECKOUT_PAGE_CSS);
  const darkCss = darkBlock(CHECKOUT_PAGE_CSS);
  const dark = { ...light, ...rootVariables(darkCss ?? '') };

  it('follows the payer\'s colour scheme: light and dark declared, a dark block redefining every colour of the page', () => {
    expect(CHECKOUT_PAGE_CSS).to.match(/:root\s*\{[^}]*color-scheme:\s*light dark;/);
    expect(darkCss, '@media (prefers-color-scheme: dark)').to.be.a('string');
    const colours = Object.keys(light).filter((name) => name !== '--radius');
    expect(Object.keys(rootVariables(darkCss!))).to.have.members(colours);
    for (const name of colours) expect(dark[name], name).to.not.equal(light[name]);
  });

  for (const [scheme, palette] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    it(`${scheme}: every colour pairing of the page is readable`, () => {
      const weak = PAIRS.filter(([fg, bg, least]) => contrast(palette[fg], palette[bg]) < least).map(
        ([fg, bg, least]) => `${fg} ${palette[fg]} on ${bg} ${palette[bg]}: ${contrast(palette[fg], palette[bg]).toFixed(2)} < ${least}`,
      );
      expect(weak).to.deep.equal([]);
    });
  }
});
