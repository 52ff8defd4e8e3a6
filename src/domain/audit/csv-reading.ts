/**
 * Reads back the CSV that exports write (export-manifest.ts `toCsv`): CRLF after every line, a field
 * quoted when it holds a comma, quote, CR or LF, quotes doubled inside. Every value comes back as
 * text; an empty field is the empty string, since CSV cannot tell it from a null.
 */

/** An unquoted field's text, matched where the reading stands (sticky): the file is read once, not once per field. */
const UNQUOTED = /[^,\r"]*/y;

/** The header and the rows of a CSV text, or a sentence saying where it is not CSV of that form. */
export function parseCsv(text: string): { columns: string[]; rows: string[][] } | string {
  const lines: string[][] = [];
  let fields: string[] = [];
  let i = 0;
  while (i < text.length) {
    let value = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote < 0) return `line ${lines.length + 1} has a quoted field that is never closed`;
        value += text.slice(i, quote);
        i = quote + 1;
        if (text[i] !== '"') break;
        value += '"';
        i += 1;
      }
    } else {
      UNQUOTED.lastIndex = i;
      UNQUOTED.exec(text);
      const stop = UNQUOTED.lastIndex;
      if (text[stop] === '"') return `line ${lines.length + 1} has a quote inside an unquoted field`;
      value = text.slice(i, stop);
      i = stop;
    }
    fields.push(value);
    if (text[i] === ',') {
      i += 1;
    } else if (text.startsWith('\r\n', i)) {
      lines.push(fields);
      fields = [];
      i += 2;
    } else {
      return `line ${lines.length + 1} does not end in CRLF`;
    }
  }
  if (fields.length > 0) return `line ${lines.length + 1} does not end in CRLF`;
  const [columns, ...rows] = lines;
  if (!columns) return 'there is no header line';
  const short = rows.findIndex((row) => row.length !== columns.length);
  if (short >= 0) return `line ${short + 2} has ${rows[short]!.length} fields, the header ${columns.length}`;
  return { columns, rows };
}
