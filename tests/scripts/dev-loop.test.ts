import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// docs/decisions/152: `npm run dev` runs the portal's development server under `remix dev --manual`;
// that server imports each new build when its version.txt is written, serves it, and tells remix
// dev it is ready. Here it runs on a small stand-in build, with a stand-in for remix dev.

/** A server build of one resource route answering `answer`, under version `version`. */
function buildModule(dir: string, version: string) {
  const module = `
    const line = (level) => (message, fields = {}) => console.log(JSON.stringify({ level, message, ...fields }));
    export const entry = { module: {
      default: () => new Response("a page"),
      logger: { error: line("error"), warn: line("warn"), info: line("info"), debug: line("debug") },
      requestIdOf: (id) => id ?? "a-request",
      runWithRequestId: (_id, next) => next(),
      answerSecurityHeaders: () => ({ "X-Build": ${JSON.stringify(version)} }),
      apiAnswerDisposition: () => null,
    } };
    export const routes = { root: { id: "root", path: "", module: {
      loader: () => new Response("answer of build ${version}"),
    } } };
    export const assets = {
      version: ${JSON.stringify(version)},
      url: "/build/manifest.js",
      entry: { module: "/build/entry.client.js", imports: [] },
      routes: { root: { id: "root", path: "", module: "/build/root.js", hasLoader: true, hasAction: false,
        hasErrorBoundary: false, hasClientLoader: false, hasClientAction: false, imports: [] } },
    };
    export const publicPath = "/build/";
    export const assetsBuildDirectory = ${JSON.stringify(join(dir, "public", "build"))};
    export const future = {};
    export const mode = "development";
    export const isSpaMode = false;
  `;
  writeFileSync(join(dir, "index.js"), module);
}

let cleanUp: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanUp.reverse()) step();
  cleanUp = [];
});

/** A stand-in for remix dev: the build versions its /ping was told, as they come. */
async function devServer() {
  const pings: string[] = [];
  const waiting: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      pings.push((JSON.parse(body) as { buildHash: string }).buildHash);
      waiting.splice(0).forEach((wake) => wake());
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanUp.push(() => server.close());
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const pinged = async (version: string) => {
    while (!pings.includes(version)) await new Promise<void>((wake) => waiting.push(wake));
  };
  return { origin, pinged };
}

/** The portal's development server on `dir`'s build; resolves with its address once it listens. */
function startPortal(dir: string, origin: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["scripts/portal-dev-server.mjs"], {
    env: { ...process.env, REMIX_BUILD_DIR: dir, PORT: "0", HOST: "127.0.0.1", REMIX_DEV_ORIGIN: origin },
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanUp.push(() => child.kill("SIGKILL"));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const port = /"message":"portal listening"[^\n]*/.exec(out) && /"port":(\d+)/.exec(out)?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}/`, child });
    });
    child.on("exit", (code) => reject(new Error(`the server stopped (${code}): ${out}`)));
  });
}

describe("the portal's development server (npm run dev)", () => {
  it("is what npm run dev runs, under remix dev in manual mode", () => {
    const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>;
    expect(scripts.dev).toBe("node scripts/dev.mjs");
    const dev = readFileSync("scripts/dev.mjs", "utf8");
    expect(dev).toContain('"dev", "--manual", "--command"');
    expect(dev).toContain("scripts/portal-dev-server.mjs");
    expect(dev).toContain('"--watch-path=server"');
  });

  it("serves each new build once its version.txt is written, and tells remix dev", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portal-dev-"));
    cleanUp.push(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, "public", "build"), { recursive: true });
    buildModule(dir, "one");
    writeFileSync(join(dir, "version.txt"), "one");
    const remix = await devServer();
    const { url, child } = await startPortal(dir, remix.origin);

    await remix.pinged("one");
    let answer = await fetch(url);
    expect(await answer.text()).toBe("answer of build one");
    // the production server's middleware: the security headers of the current build, a request id
    expect(answer.headers.get("x-build")).toBe("one");
    expect(answer.headers.get("x-request-id")).toBe("a-request");

    buildModule(dir, "two");
    // a build written within the same millisecond is a new build too
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, "index.js"), later, later);
    writeFileSync(join(dir, "version.txt"), "two");
    await remix.pinged("two");
    answer = await fetch(url);
    expect(await answer.text()).toBe("answer of build two");
    expect(answer.headers.get("x-build")).toBe("two");

    const stopped = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await stopped).toBe(0);
  });
});
