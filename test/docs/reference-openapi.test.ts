/**
 * The reference and the OpenAPI document describe the same requests: every path and method of the
 * running gateway's /openapi.json is named in docs/reference (as `METHOD /path`), every request the
 * reference names is in the document (but the pages for browsers and the providers' notifications,
 * which the document leaves out for a stated reason), the S2S actions the reference lists are
 * exactly the document's `/post` actions, and each kind of callback the reference lists has a
 * webhook with the same fields.
 */
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UNDOCUMENTED_ROUTES } from '../../src/api/openapi/document';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';
import { REPO_ROOT, proseLines, readDoc, tableAfter } from './markdown';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Mention {
  where: string;
  method: string;
  path: string;
}

/** `/admin/callbacks/{id}`, `/admin/callbacks/<delivery_id>` and `:id` alike: `/admin/callbacks/{}`. */
export const normalPath = (path: string): string =>
  path
    .replace(/\?.*$/, '')
    .replace(/\{[^},]*\}|<[^>]*>|:\w+/g, '{}')
    .replace(/\/$/, '');

/** `/api/v1/processing/{purchase,debit}/card` is two paths. */
export function expandAlternatives(path: string): string[] {
  const group = /\{([^{}]*,[^{}]*)\}/.exec(path);
  if (!group) return [path];
  return group[1].split(',').flatMap((alt) => expandAlternatives(path.slice(0, group.index) + alt.trim() + path.slice(group.index + group[0].length)));
}

/** Every `METHOD /path` code span of the pages (with or without `{base}`), outside fenced blocks. */
export function requestsNamed(pages: Array<{ path: string; markdown: string }>): Mention[] {
  const out: Mention[] = [];
  for (const { path: page, markdown } of pages) {
    for (const { number, text } of proseLines(markdown)) {
      for (const span of text.matchAll(/`([^`]+)`/g)) {
        // A cell may name several requests: `POST /a`, `POST /b` are separate spans already.
        const request = /^(GET|POST|PUT|PATCH|DELETE) (?:\{base\})?(\/\S*)$/.exec(span[1]);
        if (!request || /\.\.\.|…/.test(request[2])) continue;
        for (const one of expandAlternatives(request[2])) out.push({ where: `${page}:${number}`, method: request[1].toLowerCase(), path: normalPath(one) || '/' });
      }
    }
  }
  return out;
}

/**
 * The field names a section's fields table lists (the last table headed `Field`): the code spans of
 * its first column that name a field (`custom_data[<name>]` is custom_data, `exchange_*` any
 * exchange_ field), not values or words.
 */
export function callbackFields(rows: Array<{ cells: string[] }>): string[] {
  const header = rows.map((r) => r.cells[0]).lastIndexOf('Field');
  const names = rows.slice(header + 1).flatMap(({ cells }) => [...cells[0].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  return [...new Set(names.filter((n) => /^[a-z_]+\*?(\[[^\]]*\])?$/.test(n)).map((n) => n.replace(/\[.*$/, '')))];
}

const referencePages = () =>
  readdirSync(join(REPO_ROOT, 'docs', 'reference'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => ({ path: `docs/reference/${name}`, markdown: readDoc(`docs/reference/${name}`) }));

describe('Docs: the reference and /openapi.json describe the same requests', function () {
  let t: TestGateway;
  let documented: Set<string>;
  let s2sActions: string[];
  let webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }>;
  before(async () => {
    t = await startTestGateway({ kind: 'sqlite' });
    const doc = (await t.request('/openapi.json')).body as {
      webhooks: typeof webhooks;
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { discriminator?: { mapping: Record<string, string> } } }> } }>>;
    };
    documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).filter((m) => METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${normalPath(path) || '/'}`)),
    );
    webhooks = doc.webhooks;
    s2sActions = Object.keys(doc.paths['/post'].post.requestBody!.content['application/x-www-form-urlencoded'].schema.discriminator!.mapping).sort();
  });
  after(async () => t?.stop());

  it('Given every path and method of /openapi.json, then the reference names each as METHOD /path', () => {
    const named = new Set(requestsNamed(referencePages()).map((m) => `${m.method.toUpperCase()} ${m.path}`));
    const missing = [...documented].filter((request) => !named.has(request)).sort();
    expect(missing, `in /openapi.json, not in docs/reference:\n${missing.join('\n')}`).to.deep.equal([]);
    expect(documented.size).to.be.greaterThan(30);
  });

  it('Given every request the reference names, then /openapi.json has it, unless it is a page or notification the document leaves out', () => {
    const leftOut = (path: string) => UNDOCUMENTED_ROUTES.some((u) => path.startsWith(u.prefix));
    const missing = requestsNamed(referencePages())
      .filter((m) => !documented.has(`${m.method.toUpperCase()} ${m.path}`) && !leftOut(m.path))
      .map((m) => `${m.where} ${m.method.toUpperCase()} ${m.path}`);
    expect(missing, `in docs/reference, not in /openapi.json:\n${missing.join('\n')}`).to.deep.equal([]);
  });

  it('Given the S2S actions the reference lists, then they are exactly the actions of /post in /openapi.json', () => {
    const listed = tableAfter('docs/reference/s2s-card.md', readDoc('docs/reference/s2s-card.md'), '## Actions')
      .map(({ cells }) => /^`([A-Z0-9_]+)`/.exec(cells[0])?.[1])
      .filter((action): action is string => action !== undefined);
    expect([...new Set(listed)].sort()).to.deep.equal(s2sActions);
    expect(s2sActions).to.include('CREDIT2VIRTUAL');
  });

  it('Given each kind of callback the reference lists, then its webhook in /openapi.json has exactly the fields of its table', () => {
    const page = readDoc('docs/reference/callbacks.md');
    const sections: Record<string, string> = {
      s2sCardCallback: '## S2S CARD callbacks',
      s2sApmCallback: '## S2S APM callbacks',
      payoutCallback: '## Payout callbacks',
      checkoutCallback: '## Checkout callbacks',
    };
    expect(Object.keys(webhooks).sort()).to.deep.equal(Object.keys(sections).sort());
    for (const [name, heading] of Object.entries(sections)) {
      const listed = callbackFields(tableAfter('docs/reference/callbacks.md', page, heading));
      const described = Object.keys(webhooks[name].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties);
      const matches = (field: string, property: string) => (field.endsWith('*') ? property.startsWith(field.slice(0, -1)) : property === field);
      expect(listed.filter((field) => !described.some((p) => matches(field, p))), `${name}: in callbacks.md, not in the webhook`).to.deep.equal([]);
      expect(described.filter((p) => !listed.some((field) => matches(field, p))), `${name}: in the webhook, not in callbacks.md`).to.deep.equal([]);
    }
  });

  describe('the reader itself', () => {
    it('Given requests written with {base}, alternatives, placeholders and queries, then each is read as the paths it names', () => {
      const pages = [
        {
          path: 'x.md',
          markdown: [
            'Send `POST {base}/api/v1/processing/{purchase,debit}/card` or `GET /admin/chains/<id>` or `GET /sdk/pay-session/brands?session=<id>`.',
            'Not requests: `POST {base}/api/v1/...`, `/post`, `GET`.',
            '```',
            'POST /in-a-fence',
            '```',
          ].join('\n'),
        },
      ];
      expect(requestsNamed(pages).map((m) => `${m.method} ${m.path}`)).to.deep.equal([
        'post /api/v1/processing/purchase/card',
        'post /api/v1/processing/debit/card',
        'get /admin/chains/{}',
        'get /sdk/pay-session/brands',
      ]);
      expect(callbackFields([{ cells: ['Voided (`void`)'] }, { cells: ['Field'] }, { cells: ['`action`, `result`'] }, { cells: ['[`exchange_*`, `extended_data[…]`](#x)'] }, { cells: ['Declined (`QR code expired`, `auth=Y`)'] }, { cells: ['`redirect_params[PaReq]`, `custom_data[<name>]`'] }])).to.deep.equal([
        'action',
        'result',
        'exchange_*',
        'extended_data',
        'redirect_params',
        'custom_data',
      ]);
      expect(normalPath('/admin/callbacks/{id}/redeliver')).to.equal(normalPath('/admin/callbacks/<delivery_id>/redeliver'));
    });
  });
});
