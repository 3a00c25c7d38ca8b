// systemd's unit and configuration files as the deploy tests read them (docs/decisions/189).

export type Unit = Map<string, Map<string, string[]>>;

/** A unit file's sections and each key's values in order (a key may repeat; `\` continues a line). */
export function parseUnit(text: string): Unit {
  const unit: Unit = new Map();
  let section: Map<string, string[]> | undefined;
  const lines = text.replace(/\\\n/g, " ").split("\n");
  for (const raw of lines) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = new Map();
      unit.set(header[1]!, section);
      continue;
    }
    const pair = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (!pair || !section) throw new Error(`not a unit line: ${raw}`);
    section.set(pair[1]!, [...(section.get(pair[1]!) ?? []), pair[2]!.trim()]);
  }
  return unit;
}

/** The last value of `key` in `section`. */
export const valueOf = (unit: Unit, section: string, key: string) => unit.get(section)?.get(key)?.at(-1);
