// issue 25 item 20 (decision 117): a printed page carries the client's name and the date in its top
// margin and its number at the bottom, through CSS paged media (`@page` margin boxes), so that
// every page of a long table says whose it is and when it was printed.

/** `text` as a CSS string: quotes and backslashes escaped, line breaks and angle brackets as code points (never ends the `<style>`). */
export function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[<>\n\r]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;
}

/** The `@page` rules of the print stylesheet for one client and one date. */
export function printPageRules({ name, printed }: { name: string; printed: string }): string {
  return `@page{margin:18mm 12mm 16mm;@top-left{content:${cssString(name)}}@top-right{content:${cssString(printed)}}@bottom-right{content:counter(page) " / " counter(pages)}}`;
}
