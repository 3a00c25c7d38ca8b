import { readFileSync } from "node:fs";

// ASVS V1.6.2, V6.4.1 (docs/decisions/187): a secret can come from a file, `NAME_FILE=/run/secrets/…`,
// the convention of Docker's and Kubernetes' secrets and of vault agents, so that a secrets manager
// hands it over without the environment, where every child process and `/proc/<pid>/environ` can read it.

/** Reads a secret file; the default is the file system's. */
export type ReadSecretFile = (path: string) => string;

const readFromDisk: ReadSecretFile = (path) => readFileSync(path, "utf8");

/**
 * `source` with each of `names` read from its `NAME_FILE` when that is set: the file's text without
 * its trailing line ends (an editor's or `echo`'s newline is not part of the secret). Setting both
 * NAME and NAME_FILE is refused, as is a file that cannot be read; a message names the variable and
 * the file, never what it holds.
 */
export function withSecretFiles(
  source: Record<string, string | undefined>,
  names: readonly string[],
  read: ReadSecretFile = readFromDisk,
): Record<string, string | undefined> {
  const result = { ...source };
  for (const name of names) {
    const file = source[`${name}_FILE`];
    if (file === undefined || file === "") continue;
    if (source[name] !== undefined && source[name] !== "")
      throw new Error(`${name} and ${name}_FILE are both set: set one of them`);
    let text: string;
    try {
      text = read(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      throw new Error(`${name}_FILE: cannot read ${file} (${code})`);
    }
    result[name] = text.replace(/[\r\n]+$/, "");
  }
  return result;
}
