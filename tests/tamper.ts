/**
 * The value with one character changed where every bit of it counts: the first character of the
 * last dot-separated part (a sealed value's iv, nonce or ciphertext in base64url). A change at the
 * end of base64 can fall in its padding bits and leave the bytes as they were; here it never does.
 */
export function tampered(value: string): string {
  const at = value.lastIndexOf(".") + 1;
  const changed = value[at] === "A" ? "B" : "A";
  return `${value.slice(0, at)}${changed}${value.slice(at + 1)}`;
}
