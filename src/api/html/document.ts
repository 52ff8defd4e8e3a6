/**
 * The one HTML document shell every page of the gateway is written into (payer-facing pages, the
 * card frames, the dashboard, the API reference): the language, the character set, the viewport,
 * the robots rule, the title, then what each page links. A page's Content-Security-Policy is sent
 * with it as a header, so the shell links only same-origin files and an inline style where the
 * page's policy admits one.
 */
import { escapeHtml } from './escape';

export interface DocumentHead {
  title: string;
  /** `noindex, nofollow` unless said otherwise: no page of the gateway belongs in a search engine. */
  robots?: string;
  /** Further `<meta>` elements (HTML), after the robots rule. */
  meta?: string[];
  /** The page's icon links (HTML). */
  icons?: string;
  /** A stylesheet carried in the page, for pages whose policy admits inline styles. */
  inlineStyle?: string;
  /** Same-origin stylesheets, in order. */
  stylesheets?: string[];
  /** Same-origin scripts, deferred, in order. */
  scripts?: string[];
}

export function htmlDocument(head: DocumentHead, body: string): string {
  const lines = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="robots" content="${escapeHtml(head.robots ?? 'noindex, nofollow')}">`,
    ...(head.meta ?? []),
    `<title>${escapeHtml(head.title)}</title>`,
    ...(head.icons ? [head.icons] : []),
    ...(head.inlineStyle !== undefined ? [`<style>${head.inlineStyle}</style>`] : []),
    ...(head.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...(head.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}" defer></script>`),
  ];
  return `<!doctype html>
<html lang="en">
<head>
${lines.join('\n')}
</head>
<body>
${body}
</body>
</html>
`;
}
