import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HINT, markFirstLoads } from "../../scripts/compile-hints.mjs";

// docs/decisions/161: the build marks the large scripts of the first loads for eager compilation.

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A browser build: an entry, a root and a page, a shared chunk each imports, and a lazy chunk. */
function build() {
  dir = mkdtempSync(path.join(tmpdir(), "hints-"));
  const big = (text: string) => `${text}\n/*${"x".repeat(11 * 1024)}*/\n`;
  const files: Record<string, string> = {
    "entry.client-A.js": big(`import "/build/_shared/react-B.js";`),
    "_shared/react-B.js": big("export const react = 1;"),
    "root-C.js": `import{react}from"/build/_shared/react-B.js";export default react;`,
    "routes/page-D.js": big(`import("/build/_shared/chart-E.js");export default 2;`),
    "_shared/chart-E.js": big("export const chart = 3;"),
    "manifest-F.js": `window.__remixManifest=${JSON.stringify({
      entry: { module: "/build/entry.client-A.js", imports: [] },
      routes: {
        root: { id: "root", module: "/build/root-C.js", imports: ["/build/_shared/react-B.js"] },
        "routes/page": { id: "routes/page", parentId: "root", module: "/build/routes/page-D.js" },
      },
    })};`,
  };
  for (const [name, code] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, code);
  }
  return { serverBuild: path.join(dir, "no-server-build.js"), assetsDir: dir };
}

const read = (name: string) => readFileSync(path.join(dir, name), "utf8");

describe("the build's compile hints", () => {
  it("mark the first loads' scripts of 10 KiB or more on their first line, and nothing else", () => {
    const paths = build();
    expect(markFirstLoads(paths)).toEqual({ marked: 3, scripts: 4 });
    for (const name of ["entry.client-A.js", "_shared/react-B.js", "routes/page-D.js"]) {
      expect(read(name).startsWith(HINT)).toBe(true);
    }
    // small: compiling it costs little; loaded later by a dynamic import: a page may never call it
    expect(read("root-C.js").startsWith(HINT)).toBe(false);
    expect(read("_shared/chart-E.js").startsWith(HINT)).toBe(false);
  });

  it("leave a marked script alone when run again", () => {
    const paths = build();
    markFirstLoads(paths);
    const marked = read("_shared/react-B.js");
    expect(markFirstLoads(paths)).toEqual({ marked: 0, scripts: 4 });
    expect(read("_shared/react-B.js")).toBe(marked);
  });
});
