/**
 * The hosted page's styles for alternative methods, served in the page's one stylesheet after its
 * own rules (assets.ts): the list of methods in its groups, the chosen method's heading, a method's short help, and its step (the QR code and
 * its countdown, payment details, the note that the page moves on by itself). Colours are the
 * page's variables, so the dark scheme and the contrast rules of page-styles.ts hold here too.
 */
export const METHOD_PAGE_CSS = `
.methods { margin: 0 0 1.5rem; display: grid; gap: 1rem; }
.methods-group-title { margin: 0 0 0.5rem; font-size: 0.875rem; font-weight: 600; color: var(--muted); }
.methods ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }
.pay-title { margin: 0 0 1rem; padding-top: 1.25rem; border-top: 1px solid var(--line); font-size: 1.125rem; line-height: 1.3; }
.methods a {
  display: inline-flex; flex-direction: column; padding: 0.5rem 0.8rem; border: 1px solid var(--field);
  border-radius: 10px; color: var(--fg); text-decoration: none; font-weight: 600; font-size: 0.9375rem; line-height: 1.3;
}
.methods a:hover { border-color: var(--accent); }
.methods a[aria-current="true"] { border: 2px solid var(--accent); padding: calc(0.5rem - 1px) calc(0.8rem - 1px); color: var(--accent); }
.method-help, .method-name { color: var(--muted); font-size: 0.9375rem; }
.method-name { margin: 0 0 0.25rem; font-size: 0.875rem; }
.method-step .qr { margin: 1rem 0; width: min(16rem, 100%); background: #ffffff; padding: 0.5rem; border-radius: 10px; border: 1px solid var(--line); }
.method-step .qr svg { display: block; width: 100%; height: auto; }
.countdown { font-weight: 600; font-size: 1.05rem; }
.countdown time { font-variant-numeric: tabular-nums; }
.countdown.expired { color: var(--error); }
.step-note { color: var(--muted); font-size: 0.9375rem; }
.details { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.35rem 1rem; margin: 1rem 0; padding: 1rem; border: 1px solid var(--line); border-radius: 10px; background: var(--summary); }
.details dt { color: var(--muted); font-size: 0.875rem; }
.details dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; }
`;
