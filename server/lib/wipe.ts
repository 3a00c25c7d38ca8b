// ASVS 4.0.3 V8.3.6 (docs/decisions/185): bytes that held a secret (a derived key, a decrypted
// value, a peppered password) are overwritten with zeros once used, where the platform holds them
// in a Buffer. What JavaScript keeps in strings (a typed password, a JSON body) cannot be
// overwritten: it stays in memory until the garbage collector reuses it.

/** Runs `use` on the bytes, then zeroes them, whether it returned or threw. */
export function usingBytes<B extends Uint8Array, T>(bytes: B, use: (bytes: B) => T): T {
  try {
    return use(bytes);
  } finally {
    bytes.fill(0);
  }
}
