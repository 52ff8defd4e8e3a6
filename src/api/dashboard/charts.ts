/**
 * Charts as inline SVG rendered on the server: no chart library, no script. Each chart is a
 * <figure> with a caption, an SVG with a title and description for screen readers, a legend, and
 * the numbers themselves in a table (under a disclosure) for anyone who cannot read the picture.
 * Colours are presentation attributes (the CSP admits no inline styles).
 */
import { esc, table } from './html';

export const SERIES_COLOURS = ['#0b5cad', '#b35900', '#1a6b35', '#7d3c98', '#a4161a', '#3b4a5a'];

const WIDTH = 720;
const HEIGHT = 260;
const PAD = { left: 64, right: 16, top: 16, bottom: 44 };

let chartCounter = 0;

/** A "nice" upper bound for an axis: 1, 2 or 5 times a power of ten at or above `max`. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** At most `count` labels along the x axis, evenly spread, the last always shown. */
function labelIndexes(length: number, count: number): Set<number> {
  if (length <= count) return new Set(Array.from({ length }, (_, i) => i));
  const step = Math.ceil(length / count);
  const shown = new Set<number>();
  for (let i = 0; i < length; i += step) shown.add(i);
  shown.add(length - 1);
  return shown;
}

function frame(id: string, title: string, description: string, body: string): string {
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-t ${id}-d" font-family="system-ui, sans-serif" font-size="12">
<title id="${id}-t">${esc(title)}</title><desc id="${id}-d">${esc(description)}</desc>
${body}
</svg>`;
}

function yAxis(max: number, format: (n: number) => string): string {
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const lines: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const value = (max * i) / 4;
    const y = PAD.top + plotH - (plotH * i) / 4;
    lines.push(
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y}" y2="${y}" stroke="#c9d1d9" stroke-width="1"/>`,
      `<text x="${PAD.left - 6}" y="${y + 4}" text-anchor="end" fill="#555f6b">${esc(format(value))}</text>`,
    );
  }
  return lines.join('\n');
}

function xLabels(labels: string[], xOf: (i: number) => number): string {
  const shown = labelIndexes(labels.length, 7);
  return labels
    .map((label, i) =>
      shown.has(i) ? `<text x="${xOf(i)}" y="${HEIGHT - PAD.bottom + 18}" text-anchor="middle" fill="#555f6b">${esc(label.length === 10 ? label.slice(5) : label)}</text>` : '',
    )
    .join('');
}

function dataTable(caption: string, labels: string[], series: Array<{ name: string; values: Array<number | null> }>, format: (n: number) => string): string {
  return `<details><summary>The numbers</summary>${table({
    caption,
    head: ['', ...series.map((s) => s.name)],
    rows: labels.map((label, i) => [esc(label), ...series.map((s) => (s.values[i] === null ? '–' : esc(format(s.values[i]!))))]),
    empty: 'No data.',
    numeric: series.map((_, i) => i + 1),
  })}</details>`;
}

function legend(names: string[]): string {
  return `<ul class="legend">${names.map((name, i) => `<li><span class="swatch swatch-${i % SERIES_COLOURS.length}" aria-hidden="true"></span>${esc(name)}</li>`).join('')}</ul>`;
}

/** Bars, one per label (days), of one series. */
export function barChart(o: { title: string; description: string; labels: string[]; values: number[]; format: (n: number) => string; colour?: number }): string {
  const id = `chart-${++chartCounter}`;
  const max = niceMax(Math.max(0, ...o.values));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(o.labels.length, 1);
  const barW = Math.max(2, Math.min(40, slot * 0.7));
  const xOf = (i: number) => PAD.left + slot * i + slot / 2;
  const fill = SERIES_COLOURS[(o.colour ?? 0) % SERIES_COLOURS.length];
  const bars = o.values
    .map((v, i) => {
      const h = (Math.max(v, 0) / max) * plotH;
      return `<rect x="${(xOf(i) - barW / 2).toFixed(1)}" y="${(PAD.top + plotH - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${fill}"><title>${esc(`${o.labels[i]}: ${o.format(v)}`)}</title></rect>`;
    })
    .join('\n');
  return `<figure class="chart"><figcaption>${esc(o.title)}</figcaption>
${frame(id, o.title, o.description, `${yAxis(max, o.format)}\n${bars}\n${xLabels(o.labels, xOf)}`)}
${dataTable(o.title, o.labels, [{ name: o.title, values: o.values }], o.format)}
</figure>`;
}

/** Lines, one per series, over shared labels; a gap where a value is null. */
export function lineChart(o: {
  title: string;
  description: string;
  labels: string[];
  series: Array<{ name: string; values: Array<number | null> }>;
  max?: number;
  format: (n: number) => string;
}): string {
  const id = `chart-${++chartCounter}`;
  const max = o.max ?? niceMax(Math.max(0, ...o.series.flatMap((s) => s.values.filter((v): v is number => v !== null))));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const xOf = (i: number) => PAD.left + (o.labels.length <= 1 ? plotW / 2 : (plotW * i) / (o.labels.length - 1));
  const yOf = (v: number) => PAD.top + plotH - (Math.min(Math.max(v, 0), max) / max) * plotH;
  const lines = o.series
    .map((s, n) => {
      const colour = SERIES_COLOURS[n % SERIES_COLOURS.length];
      const segments: string[] = [];
      let current: string[] = [];
      s.values.forEach((v, i) => {
        if (v === null) {
          if (current.length) segments.push(current.join(' '));
          current = [];
        } else current.push(`${xOf(i).toFixed(1)},${yOf(v).toFixed(1)}`);
      });
      if (current.length) segments.push(current.join(' '));
      const dots = s.values
        .map((v, i) => (v === null ? '' : `<circle cx="${xOf(i).toFixed(1)}" cy="${yOf(v).toFixed(1)}" r="3.5" fill="${colour}"><title>${esc(`${s.name} ${o.labels[i]}: ${o.format(v)}`)}</title></circle>`))
        .join('');
      return `${segments.map((points) => `<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2.5"/>`).join('')}${dots}`;
    })
    .join('\n');
  return `<figure class="chart"><figcaption>${esc(o.title)}</figcaption>
${frame(id, o.title, o.description, `${yAxis(max, o.format)}\n${lines}\n${xLabels(o.labels, xOf)}`)}
${legend(o.series.map((s) => s.name))}
${dataTable(o.title, o.labels, o.series, o.format)}
</figure>`;
}

/** Horizontal bars, one per labelled row (merchants), with their value written beside them. */
export function rowChart(o: { title: string; description: string; rows: Array<{ label: string; value: number }>; max: number; format: (n: number) => string }): string {
  const id = `chart-${++chartCounter}`;
  const rowH = 28;
  const left = 220;
  const height = Math.max(rowH * o.rows.length + 16, 48);
  const plotW = WIDTH - left - 90;
  const bars = o.rows
    .map((r, i) => {
      const w = (Math.min(Math.max(r.value, 0), o.max) / (o.max || 1)) * plotW;
      const y = 8 + i * rowH;
      return `<text x="${left - 8}" y="${y + 17}" text-anchor="end" fill="#1b1f24">${esc(r.label.length > 30 ? `${r.label.slice(0, 29)}…` : r.label)}</text>
<rect x="${left}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 10}" fill="${SERIES_COLOURS[1]}"/>
<text x="${(left + w + 6).toFixed(1)}" y="${y + 17}" fill="#1b1f24">${esc(o.format(r.value))}</text>`;
    })
    .join('\n');
  return `<figure class="chart"><figcaption>${esc(o.title)}</figcaption>
<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${id}-t ${id}-d" font-family="system-ui, sans-serif" font-size="12">
<title id="${id}-t">${esc(o.title)}</title><desc id="${id}-d">${esc(o.description)}</desc>
${bars}
</svg>
${dataTable(o.title, o.rows.map((r) => r.label), [{ name: o.title, values: o.rows.map((r) => r.value) }], o.format)}
</figure>`;
}
