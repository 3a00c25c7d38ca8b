import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nginxBinary, renderNginxConfig, writeNginxFiles } from "../../deploy/nginx.mjs";

// Issue 24 finding 1: the rendered nginx configuration holds the portal's body limits per location:
// 128 KiB for every form, the whole-message limit on the compose form's one path. Rendered, checked
// by nginx itself, and tried against a real nginx in front of a stand-in portal.

const FORM_LIMIT = 128 * 1024;
const MESSAGE_LIMIT = 55_000_000;

const render = (runtimeDir: string) =>
  renderNginxConfig({
    listenPort: 8080,
    upstreams: ["127.0.0.1:3001"],
    publicBuildDir: join(runtimeDir, "public", "build"),
    runtimeDir,
  }) as string;

describe("the rendered configuration", () => {
  it("caps every body at the form limit and the compose path at the whole-message limit", () => {
    const config = render("/tmp/nginx-render");
    expect(config).toMatch(new RegExp(`^  client_max_body_size ${FORM_LIMIT};$`, "m"));
    const compose = /location = \/clients\/documents-and-messages \{([^}]*)\}/.exec(config)?.[1] ?? "";
    expect(compose).toContain(`client_max_body_size ${MESSAGE_LIMIT};`);
    expect(compose).toContain("proxy_pass http://portal;");
    // a refusal is a readable answer, not nginx's page
    expect(config).toContain("error_page 413 @too_large;");
  });
});

const nginx = nginxBinary();
const hasNginx = (() => {
  try {
    execFileSync(nginx, ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(hasNginx)("a real nginx in front of the portal", () => {
  let dir: string;
  let portal: Server;
  let proxy: ChildProcess;
  let port: number;
  const received: number[] = [];

  const freePort = () =>
    new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "nginx-limits-"));
    mkdirSync(join(dir, "public", "build"), { recursive: true });
    // the stand-in portal counts what reaches it
    portal = createServer((req, res) => {
      let bytes = 0;
      req.on("data", (chunk: Buffer) => (bytes += chunk.length));
      req.on("end", () => {
        received.push(bytes);
        res.end(`received ${bytes}`);
      });
    });
    await new Promise<void>((resolve) => portal.listen(0, "127.0.0.1", resolve));
    port = await freePort();
    const runtimeDir = join(dir, "nginx");
    const paths = writeNginxFiles({
      listenPort: port,
      listenHost: "127.0.0.1",
      upstreams: [`127.0.0.1:${(portal.address() as AddressInfo).port}`],
      publicBuildDir: join(dir, "public", "build"),
      runtimeDir,
      workerProcesses: 1,
    }) as { dir: string; config: string };
    // as root, nginx's workers are `nobody`: they must own the runtime directory
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      const chown = (path: string) => {
        chownSync(path, 65534, 65534);
        if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) chown(join(path, entry));
      };
      chown(dir);
    }
    execFileSync(nginx, ["-t", "-q", "-p", paths.dir, "-c", paths.config], asRoot ? { uid: 65534, gid: 65534 } : {});
    proxy = spawn(nginx, ["-p", paths.dir, "-c", paths.config], {
      stdio: "ignore",
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 20_000);

  afterAll(async () => {
    proxy?.kill("SIGTERM");
    await new Promise<void>((resolve) => portal?.close(() => resolve()) ?? resolve());
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A POST of `bytes` bytes, declared or chunked; the status and the answer's text. */
  function post(path: string, bytes: number, chunked = false) {
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path,
          method: "POST",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            ...(chunked ? {} : { "Content-Length": String(bytes) }),
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      let sent = 0;
      const write = () => {
        while (sent < bytes) {
          const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
          sent += part.length;
          if (!req.write(part)) return void req.once("drain", write);
        }
        req.end();
      };
      req.on("response", () => (sent = bytes));
      write();
    });
  }

  it("refuses a form over 128 KiB with a readable 413, declared or chunked, and passes one at the limit", async () => {
    const before = received.length;
    const declared = await post("/login", 100 * 1024 * 1024);
    expect(declared.status).toBe(413);
    expect(declared.text).toBe("The form sent is too large.\n");
    const chunked = await post("/clients/preferences", 1024 * 1024, true);
    expect(chunked.status).toBe(413);
    expect(received.length).toBe(before);
    const atLimit = await post("/login", FORM_LIMIT);
    expect(atLimit).toEqual({ status: 200, text: `received ${FORM_LIMIT}` });
  });

  it("lets a message with files through on the compose path only", async () => {
    expect(await post("/clients/documents-and-messages?compose=true", 12 * 1024 * 1024)).toEqual({
      status: 200,
      text: `received ${12 * 1024 * 1024}`,
    });
    expect((await post("/clients/documents-and-messages/files/1/2", 1024 * 1024)).status).toBe(413);
    expect((await post("/clients/documents-and-messages", MESSAGE_LIMIT + 1)).status).toBe(413);
  }, 30_000);
});
