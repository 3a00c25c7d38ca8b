import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createSocket, type Socket } from "node:dgram";
import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logDestinations, nginxBinary, nginxPaths, renderNginxConfig, writeNginxFiles } from "../../deploy/nginx.mjs";

// ASVS 4.0.3 V8.3.1 and V1.7.2, V7.3.3 (docs/decisions/189): nginx's access log writes the path
// of each request, never its query (the adviser's client search carries names, dates of birth and
// postcodes there); its logs go to files in the runtime directory or, in production, to the
// machine's syslog (a local socket or a loopback address: nginx's syslog is plain UDP).

/** What renderNginxConfig and writeNginxFiles take (deploy/nginx.mjs). */
type Options = {
  listenPort: number;
  listenHost?: string;
  upstreams: string[];
  publicBuildDir: string;
  runtimeDir: string;
  workerProcesses?: number | "auto";
  logTo?: string;
  syslog?: string;
};

const render = (options: Partial<Options> = {}): string =>
  (renderNginxConfig as (options: Options) => string)({
    listenPort: 8080,
    upstreams: ["127.0.0.1:3001"],
    publicBuildDir: "/tmp/nginx-render/public/build",
    runtimeDir: "/tmp/nginx-render",
    ...options,
  }) as string;

/** The log_format of the access log, its quoted parts joined. */
const logFormat = (config: string) =>
  [...(/log_format portal ([^;]*);/.exec(config)?.[1] ?? "").matchAll(/'([^']*)'/g)].map((m) => m[1]).join("");

describe("the access log's format", () => {
  it("writes the method, the path without its query and the protocol", () => {
    const format = logFormat(render());
    expect(format).toContain('"$request_method $uri $server_protocol"');
    // every variable that carries the query string
    for (const variable of ["$request ", '$request"', "$request_uri", "$args", "$query_string", "$arg_", "$is_args"]) {
      expect(format).not.toContain(variable);
    }
    expect(format).toContain("request_id=$request_id");
  });
});

describe("where nginx's logs go", () => {
  const paths = nginxPaths("/srv/co/nginx");

  it("by default, to error.log and access.log in the runtime directory", () => {
    expect(logDestinations({ paths })).toEqual({
      error: "/srv/co/nginx/error.log",
      access: "/srv/co/nginx/access.log",
    });
    const config = render({ runtimeDir: "/srv/co/nginx" });
    expect(config).toMatch(/^error_log \/srv\/co\/nginx\/error\.log warn;$/m);
    expect(config).toMatch(/^ {2}access_log \/srv\/co\/nginx\/access\.log portal;$/m);
  });

  it("to the machine's syslog, tagged, when asked", () => {
    const config = render({ logTo: "syslog" });
    expect(config).toMatch(/^error_log syslog:server=unix:\/dev\/log,facility=local7,tag=client_online_nginx warn;$/m);
    expect(config).toMatch(
      /^ {2}access_log syslog:server=unix:\/dev\/log,facility=local7,tag=client_online_nginx,severity=info portal;$/m,
    );
    expect(config).not.toContain("access.log");
    expect(logDestinations({ paths, logTo: "syslog", syslog: "127.0.0.1:5514" }).access).toBe(
      "syslog:server=127.0.0.1:5514,facility=local7,tag=client_online_nginx,severity=info",
    );
    for (const local of ["unix:/run/systemd/journal/dev-log", "localhost", "[::1]:514", "127.0.0.2:514"]) {
      expect(() => logDestinations({ paths, logTo: "syslog", syslog: local })).not.toThrow();
    }
  });

  it("never to a syslog across the network (plain UDP), nor anywhere else", () => {
    for (const remote of ["10.0.0.5:514", "logs.example.com", "192.168.1.2", "unix:relative", "unix:/dev/log,tag=x"]) {
      expect(() => logDestinations({ paths, logTo: "syslog", syslog: remote })).toThrow(/local socket/);
    }
    expect(() => render({ logTo: "stdout" })).toThrow(/files or syslog/);
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

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** A search as an adviser bookmarks it: a client's name, date of birth and postcode in the query. */
const SEARCH = "/advisers/clients?name=Pemberton&dob=23%2F04%2F1961&postcode=SW1A+1AA";
const SECRETS = ["Pemberton", "1961", "SW1A", "name=", "?"];

describe.runIf(hasNginx)("a real nginx's log lines", () => {
  let dir: string;
  let portal: Server;
  let syslog: Socket;
  const datagrams: string[] = [];
  const proxies: ChildProcess[] = [];
  const asRoot = process.getuid?.() === 0;

  /** Renders and starts nginx in `name` under the test's directory; its port. */
  async function start(name: string, options: Partial<Options>) {
    const port = await freePort();
    const paths = writeNginxFiles({
      listenPort: port,
      listenHost: "127.0.0.1",
      upstreams: [`127.0.0.1:${(portal.address() as AddressInfo).port}`],
      publicBuildDir: join(dir, "public", "build"),
      runtimeDir: join(dir, name),
      workerProcesses: 1,
      ...options,
    }) as { dir: string; config: string };
    // as root, nginx's workers are `nobody`: they must own the runtime directory
    if (asRoot) {
      const chown = (path: string) => {
        chownSync(path, 65534, 65534);
        if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) chown(join(path, entry));
      };
      chown(dir);
    }
    const as = asRoot ? { uid: 65534, gid: 65534 } : {};
    execFileSync(nginx, ["-t", "-q", "-p", paths.dir, "-c", paths.config], as);
    proxies.push(spawn(nginx, ["-p", paths.dir, "-c", paths.config], { stdio: "ignore", ...as }));
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return port;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "nginx-logs-"));
    mkdirSync(join(dir, "public", "build"), { recursive: true });
    portal = createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => portal.listen(0, "127.0.0.1", resolve));
    syslog = createSocket("udp4");
    syslog.on("message", (message) => datagrams.push(message.toString("utf8")));
    await new Promise<void>((resolve) => syslog.bind(0, "127.0.0.1", resolve));
  }, 20_000);

  afterAll(async () => {
    for (const proxy of proxies) proxy.kill("SIGTERM");
    syslog?.close();
    await new Promise<void>((resolve) => portal?.close(() => resolve()) ?? resolve());
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("in access.log carry a search's path, not its query", async () => {
    const port = await start("files", {});
    expect((await fetch(`http://127.0.0.1:${port}${SEARCH}`)).status).toBe(200);
    const accessLog = join(dir, "files", "access.log");
    let line: string | undefined;
    for (let i = 0; i < 100 && !line; i++) {
      line = readFileSync(accessLog, "utf8")
        .split("\n")
        .find((l) => l.includes("/advisers/clients"));
      if (!line) await new Promise((r) => setTimeout(r, 50));
    }
    expect(line).toMatch(/"GET \/advisers\/clients HTTP\/1\.1" 200 /);
    for (const secret of SECRETS) expect(line).not.toContain(secret);
  });

  it("sent to syslog carry the tag and the path, not the query", async () => {
    const port = await start("syslog", {
      logTo: "syslog",
      syslog: `127.0.0.1:${(syslog.address() as AddressInfo).port}`,
    });
    expect((await fetch(`http://127.0.0.1:${port}${SEARCH}`)).status).toBe(200);
    let line: string | undefined;
    for (let i = 0; i < 100 && !line; i++) {
      line = datagrams.find((d) => d.includes("/advisers/clients"));
      if (!line) await new Promise((r) => setTimeout(r, 50));
    }
    expect(line).toContain("client_online_nginx:");
    expect(line).toMatch(/"GET \/advisers\/clients HTTP\/1\.1" 200 /);
    for (const secret of SECRETS) expect(line).not.toContain(secret);
    // nothing is written in the runtime directory's files
    expect(readdirSync(join(dir, "syslog")).filter((f) => f.endsWith(".log"))).toEqual([]);
  });
});
