// One Intl formatter per locale and options (decision 124): making an Intl.NumberFormat or
// DateTimeFormat costs far more than formatting with one, and the pages format hundreds of figures
// each (every holding's cells, every chart label). The formatters are kept in app/lib/format.ts,
// a module the browser already loads; the server's modules import them from here.
export { dateTimeFormat, keptIn, numberFormat } from "./format";
