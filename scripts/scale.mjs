// `npm run test:scale`: two portal instances behind a real nginx, rendered from deploy/nginx.mjs and
// watched by deploy/upstream-check.mjs (docs/decisions/102-load-balancer.md). While the platform is
// in maintenance neither instance is ready, and the portal's maintenance page must still reach the
// user. Then a client signs in through nginx and uses the portal while its requests go round-robin
// to both instances; one instance is killed (SIGKILL) in the middle, with page loads in flight on
// it, and restarted; the other is stopped (SIGTERM) during a slow request. The client must stay
// signed in, get every page, and find everything it submitted. The instances share their rate
// limits through a real redis-server (docs/decisions/115): sign-in posts alternately to each
// instance are allowed the limit once, not twice, and so are a username's failed sign-ins; with
// Redis stopped at the end, each instance keeps the limits in its memory and says so. Needs the
// build (`npm run build`), nginx (Debian: nginx-light) and redis-server (Debian: redis-server).
// One request's id (nginx's $request_id, docs/decisions/125) is found in the answer, nginx's access
// log, a portal instance's log and the platform's log (their lines are kept in files beside nginx's).
// Prints PASS or FAIL lines; exits 1 on the first failure.
//
// Each instance reaches the platform through a small relay in this process, which can hold or slow
// that instance's platform calls: that is how a request is known to be in flight on one instance.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { Agent, createServer, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { nginxBinary, parseUpstreams, writeNginxFiles } from "../deploy/nginx.mjs";
import { PORTAL_NODE_FLAGS, PORTAL_PROCESS_ENV } from "./portal-node-flags.mjs";
import { CALLER_KEY_HEADER, freePort, newCallerKey, platformCommand, waitFor } from "./servers.mjs";

// The instances authenticate themselves to the platform with a key (docs/decisions/186), and to
// Redis with its password (AUTH, in REDIS_URL), as README "Deploy" asks of a deployment.
const CALLER_KEY = newCallerKey();
const REDIS_PASSWORD = randomBytes(16).toString("hex");

const root = resolve(import.meta.dirname, "..");
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)}s`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const SLOW_MS = 3_000;
/** The instances' sign-in posts per address, and failed sign-ins per username (decision 115). */
const SIGN_IN_LIMIT = 4;
const FAILURES_LIMIT = 3;

class Failure extends Error {}
function pass(what) {
  console.log(`PASS ${what}`);
}
function expect(condition, what) {
  if (!condition) throw new Failure(what);
  pass(what);
}
function note(what) {
  console.log(`[${elapsed()}] ${what}`);
}

// ---------------------------------------------------------------------------------------------
// Processes

const children = new Set();
let dir = null;
/** For a failure's report: nginx's error log. */
let nginxErrorLog = null;

/**
 * A child whose output is kept: `lines` (parsed when JSON) and `tail` (the last of stderr); with
 * `logFile`, every line of both streams is also appended to that file, as an operator's collector would.
 */
function startChild(name, command, args, { env = {}, user = null, logFile = null } = {}) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
  const entry = { name, child, lines: [], tail: [], exited: null, logFile };
  const file = logFile ? createWriteStream(logFile, { flags: "a" }) : null;
  entry.exited = new Promise((resolveExit) => {
    child.on("exit", (code, signal) => {
      children.delete(entry);
      resolveExit({ code, signal, at: performance.now() });
    });
    child.on("error", (error) => {
      entry.tail.push(String(error));
      children.delete(entry);
      resolveExit({ code: null, signal: null, at: performance.now() });
    });
  });
  const read = (stream, into) => {
    let buffer = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk) => {
      buffer += chunk;
      let i;
      while ((i = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        into(line);
      }
    });
  };
  // Both streams: the portal's and the checker's error lines (on stderr) are events too.
  const keep = (line) => {
    let event = null;
    try {
      event = JSON.parse(line);
    } catch {
      // not a JSON line
    }
    entry.lines.push({ at: performance.now(), text: line, event });
    file?.write(`${line}\n`);
  };
  read(child.stdout, keep);
  read(child.stderr, (line) => {
    keep(line);
    entry.tail.push(line);
    if (entry.tail.length > 40) entry.tail.shift();
  });
  children.add(entry);
  return entry;
}

async function stopAll() {
  for (const { child, name } of children) {
    // nginx's master takes its workers along on SIGTERM; a SIGKILL would leave them running.
    if (child.exitCode === null) child.kill(name === "nginx" ? "SIGTERM" : "SIGKILL");
  }
  await Promise.race([Promise.all([...children].map((c) => c.exited)), sleep(5_000)]);
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** As root, nginx and the checker run as `nobody`: the configuration must not need root. */
function unprivilegedUser() {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("nobody:"));
  const [, , uid, gid] = (line ?? "nobody:x:65534:65534").split(":");
  nodeOpenToEveryone();
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * The upstream check runs as `nobody` with this node: every folder above it must let other users
 * through (a node kept in root's home does not; `.ci/run` keeps its Node 24 in /opt as root).
 */
function nodeOpenToEveryone() {
  for (let folder = dirname(process.execPath); folder !== dirname(folder); folder = dirname(folder)) {
    if ((statSync(folder).mode & 0o001) === 0)
      throw new Failure(`node at ${process.execPath} that nobody may run (${folder} is closed to other users)`);
  }
}

function chownTree(path, user) {
  chownSync(path, user.uid, user.gid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) chownTree(child, user);
    else chownSync(child, user.uid, user.gid);
  }
}

// ---------------------------------------------------------------------------------------------
// A relay between one instance and the platform: passes, holds, or slows that instance's calls
// (never the health check, which /readyz makes).

function platformRelay(platformPort) {
  const relay = { mode: "pass", slowOnce: 0, held: 0, parked: new Set(), port: 0 };
  const server = createServer((req, res) => {
    const forward = () => {
      if (res.destroyed || res.writableEnded) return;
      const upstream = httpRequest(
        { host: "127.0.0.1", port: platformPort, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    };
    if (req.url?.startsWith("/xplan/health") || (relay.mode === "pass" && relay.slowOnce === 0)) return forward();
    relay.held += 1;
    if (relay.slowOnce > 0) {
      const ms = relay.slowOnce;
      relay.slowOnce = 0;
      setTimeout(forward, ms);
      return;
    }
    // held until released; dropped when the instance goes away
    const parked = { forward };
    relay.parked.add(parked);
    res.once("close", () => relay.parked.delete(parked));
  });
  relay.release = () => {
    relay.mode = "pass";
    for (const parked of relay.parked) parked.forward();
    relay.parked.clear();
  };
  relay.close = () => {
    server.closeAllConnections();
    server.close();
  };
  return new Promise((resolveRelay) => {
    server.listen(0, "127.0.0.1", () => {
      relay.port = server.address().port;
      resolveRelay(relay);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// A client that keeps cookies. One connection per request: no keep-alive race with a proxy that
// reloads, so what is measured is nginx and the portal, not this client.

class Browser {
  constructor(base) {
    this.base = new URL(base);
    this.cookies = new Map();
  }

  request(path, { method = "GET", headers = {}, body = null } = {}) {
    return new Promise((resolveResponse, reject) => {
      const url = new URL(path, this.base);
      const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method,
          path: url.pathname + url.search,
          agent: false,
          headers: {
            ...headers,
            ...(cookie ? { Cookie: cookie } : {}),
            ...(body ? { "Content-Length": body.length } : {}),
          },
        },
        (res) => {
          const chunks = [];
          res.on("data", (chunk) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => {
            for (const set of [res.headers["set-cookie"] ?? []].flat()) {
              const [pair, ...attributes] = set.split(";");
              const i = pair.indexOf("=");
              const name = pair.slice(0, i).trim();
              const value = pair.slice(i + 1).trim();
              const expired = attributes.some(
                (a) =>
                  /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]) < Date.now()),
              );
              if (expired || value === "") this.cookies.delete(name);
              else this.cookies.set(name, value);
            }
            resolveResponse({
              status: res.statusCode,
              headers: res.headers,
              location: res.headers.location ?? null,
              text: Buffer.concat(chunks).toString("utf8"),
              complete: res.complete,
            });
          });
        },
      );
      req.on("error", reject);
      req.end(body ?? undefined);
    });
  }

  /** A page the signed-in user sees: 200 and a whole document, never a redirect to the login. */
  async page(path) {
    const res = await this.request(path);
    if (res.status !== 200)
      throw new Failure(`${path} answered ${res.status}${res.location ? ` → ${res.location}` : ""}`);
    if (!res.complete || !res.text.includes("</html>")) throw new Failure(`${path} answered an incomplete page`);
    return res.text;
  }

  /** Follows redirects (not to the login) to a page. */
  async land(path) {
    for (let hops = 0; hops < 5; hops++) {
      const res = await this.request(path);
      if (res.status !== 302 && res.status !== 303) break;
      if (/^\/login\b/.test(new URL(res.location, this.base).pathname))
        throw new Failure(`${path} sends the user to the login`);
      path = res.location;
    }
    await this.page(path);
    return path;
  }

  async post(path, fields, headers = {}) {
    const body = Buffer.from(new URLSearchParams(fields).toString());
    return this.request(path, {
      method: "POST",
      body,
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
    });
  }

  async postMultipart(path, formData) {
    const encoded = new Request("http://multipart.invalid/", { method: "POST", body: formData });
    const body = Buffer.from(await encoded.arrayBuffer());
    return this.request(path, {
      method: "POST",
      body,
      headers: { "Content-Type": encoded.headers.get("content-type") },
    });
  }
}

const hiddenField = (html, name) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1] ?? "";

/**
 * A wrong password posted to one instance directly, as nginx would pass it on for `client` (the
 * one X-Forwarded-For entry is the address the instance counts, behind its one trusted proxy).
 */
async function wrongPassword(browser, instanceUrl, client, username) {
  const login = await browser.page(`${instanceUrl}/login?userType=client`);
  const started = performance.now();
  const res = await browser.post(
    `${instanceUrl}/login`,
    {
      csrf: hiddenField(login, "csrf"),
      name__confirm: "",
      from__confirm: hiddenField(login, "from__confirm"),
      userType: "client",
      username,
      password: "not-the-password",
    },
    { "X-Forwarded-For": client },
  );
  return {
    status: res.status,
    retryAfter: res.headers["retry-after"] ?? null,
    ms: performance.now() - started,
    text: res.text,
  };
}

function preferencesOf(html) {
  const checked = (field) => {
    const input = new RegExp(`<input[^>]*id="preference-${field}"[^>]*>`).exec(html)?.[0];
    if (!input) throw new Failure(`the preferences page has no ${field} box`);
    return /\schecked(=|\s|\/|>)/.test(input);
  };
  return { email: checked("email"), post: checked("post"), sms: checked("sms") };
}

async function savePreferences(browser, wanted) {
  const form = await browser.page("/clients/preferences");
  const fields = { csrf: hiddenField(form, "csrf") };
  for (const [name, on] of Object.entries(wanted)) if (on) fields[name] = "on";
  const res = await browser.post("/clients/preferences", fields);
  if (res.status !== 302) throw new Failure(`saving the preferences answered ${res.status}`);
  return preferencesOf(await browser.page("/clients/preferences"));
}

async function sendMessage(browser, subject) {
  const compose = "/clients/documents-and-messages?view=compose";
  const form = await browser.page(compose);
  const data = new FormData();
  data.append("csrf", hiddenField(form, "csrf"));
  data.append("subject", subject);
  data.append("body", `Sent through nginx by the scale test: ${subject}.`);
  const res = await browser.postMultipart(compose, data);
  if (res.status !== 302) throw new Failure(`sending "${subject}" answered ${res.status}`);
}

const sentFolder = (browser) => browser.page("/clients/documents-and-messages?folder=sent");

// ---------------------------------------------------------------------------------------------

async function until(what, predicate, ms) {
  const from = performance.now();
  while (performance.now() - from < ms) {
    if (predicate()) return performance.now();
    await sleep(20);
  }
  throw new Failure(`${what} within ${seconds(ms)}`);
}

// ---------------------------------------------------------------------------------------------
// The cluster: redis, the platform, two portal instances each behind its relay, nginx and its
// upstream check. Every phase below is handed the one cluster and acts on it.

/** The build, nginx and redis-server the test needs, or which is missing. */
function requiredTools() {
  const buildDir = resolve(root, process.env.REMIX_BUILD_DIR ?? "build");
  // remix.config.js: the assets of REMIX_BUILD_DIR are in <dir>/public/build, else public/build
  const publicBuildDir = process.env.REMIX_BUILD_DIR
    ? join(buildDir, "public", "build")
    : join(root, "public", "build");
  if (!existsSync(join(buildDir, "index.js")) || !existsSync(publicBuildDir))
    throw new Failure("a built portal (run `npm run build` first)");
  const nginx = nginxBinary();
  try {
    execFileSync(nginx, ["-v"], { stdio: "ignore" });
  } catch {
    throw new Failure(`nginx at ${nginx} (apt-get install nginx-light, or set NGINX)`);
  }
  const redisServer = process.env.REDIS_SERVER ?? "/usr/bin/redis-server";
  if (!existsSync(redisServer))
    throw new Failure(`redis-server at ${redisServer} (apt-get install redis-server, or set REDIS_SERVER)`);
  return { publicBuildDir, nginx, redisServer };
}

/** The instances' shared store of rate limits: nothing kept on disk. */
async function startRedis(redisServer, port) {
  const redis = startChild("redis", redisServer, [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--requirepass",
    REDIS_PASSWORD,
  ]);
  await until(
    "redis-server ready",
    () => redis.lines.some((l) => l.text.includes("Ready to accept connections")),
    10_000,
  );
  return redis;
}

/** One portal instance's environment: its port, its relay to the platform, the shared secret and Redis. */
function instanceEnv({ port, relayPort, sessionSecret, redisPort }) {
  return {
    ...PORTAL_PROCESS_ENV,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    PLANNING_API_URL: `http://127.0.0.1:${relayPort}`,
    SESSION_SECRET: sessionSecret,
    TRUST_PROXY_HOPS: "1",
    COOKIE_SECURE: "false",
    LOG_LEVEL: "info",
    ANALYTICS_PAGE_VIEWS: "false",
    PLANNING_TIMEOUT_MS: "8000",
    // docs/decisions/115: limits shared through Redis; the sign-in limit low enough to count
    REDIS_URL: `redis://:${REDIS_PASSWORD}@127.0.0.1:${redisPort}`,
    PLANNING_API_KEY: CALLER_KEY,
    RATE_LIMIT_SIGN_IN: String(SIGN_IN_LIMIT),
    RATE_LIMIT_SIGN_IN_FAILURES: String(FAILURES_LIMIT),
    // no attachment is sent here; production asks for the scanner or this word (docs/decisions/192)
    CLAMD_ADDRESS: "off",
  };
}

/** The platform and portal instances A and B, each instance calling the platform through its relay; once all are ready. */
async function startPortals({ platformPort, nginxPort, redisPort, portalPorts, logsDir }) {
  const platform = platformCommand({ dir, port: platformPort, portalPorts: [nginxPort], callerKey: CALLER_KEY });
  const platformProcess = startChild("platform", process.execPath, platform.args, {
    // its request lines, with their ids, are off under NODE_ENV=test unless asked for
    env: { ...platform.env, PLATFORM_LOG_LEVEL: "info" },
    logFile: join(logsDir, "platform.log"),
  });
  const relays = { A: await platformRelay(platformPort), B: await platformRelay(platformPort) };
  const address = (name) => `127.0.0.1:${portalPorts[name]}`;
  const sessionSecret = randomBytes(32).toString("hex");
  const instances = {};
  const startInstance = (name) => {
    const env = instanceEnv({ port: portalPorts[name], relayPort: relays[name].port, sessionSecret, redisPort });
    instances[name] = startChild(
      `portal ${name}`,
      process.execPath,
      [...PORTAL_NODE_FLAGS, "scripts/portal-server.mjs"],
      { env, logFile: join(logsDir, `portal-${name}.log`) },
    );
    return instances[name];
  };
  startInstance("A");
  startInstance("B");
  try {
    await Promise.all([
      waitFor(`http://127.0.0.1:${platformPort}/xplan/health`, 60, { [CALLER_KEY_HEADER]: CALLER_KEY }),
      waitFor(`http://${address("A")}/readyz`, 60),
      waitFor(`http://${address("B")}/readyz`, 60),
    ]);
  } catch (error) {
    for (const entry of [platformProcess, instances.A, instances.B])
      if (entry.tail.length) console.log(`${entry.name}:\n${entry.tail.join("\n")}`);
    throw new Failure(String(error.message));
  }
  note(`platform and portal instances A (${address("A")}) and B (${address("B")}) ready`);
  return { platformProcess, relays, instances, startInstance, address };
}

/** nginx in front of both instances (as `nobody` when run as root), with its upstream check. */
async function startNginx({ nginx, nginxPort, upstreams, publicBuildDir, runtimeDir, user }) {
  const paths = writeNginxFiles({
    listenHost: "127.0.0.1",
    listenPort: nginxPort,
    upstreams,
    publicBuildDir,
    runtimeDir,
  });
  nginxErrorLog = paths.errorLog;
  if (user) chownTree(runtimeDir, user);
  const nginxProcess = startChild("nginx", nginx, ["-p", paths.dir, "-c", paths.config], { user });
  const checker = startChild(
    "upstream check",
    process.execPath,
    ["deploy/upstream-check.mjs", "--runtime-dir", paths.dir, "--interval", "1"],
    { user },
  );
  try {
    await waitFor(`http://127.0.0.1:${nginxPort}/healthz`, 15);
  } catch {
    const log = existsSync(paths.errorLog) ? readFileSync(paths.errorLog, "utf8") : "";
    throw new Failure(`nginx answering (${[...nginxProcess.tail, log].join("\n").trim()})`);
  }
  note(`nginx on 127.0.0.1:${nginxPort}${user ? ` as uid ${user.uid}` : ""}, upstream check every 1 s`);
  return { paths, checker };
}

/** Everything the phases act on: the processes, their ports and logs, and two cookie-keeping clients. */
async function startCluster() {
  const { publicBuildDir, nginx, redisServer } = requiredTools();
  dir = mkdtempSync(join(tmpdir(), "client-online-scale-"));
  chmodSync(dir, 0o755);
  const runtimeDir = join(dir, "nginx");
  mkdirSync(runtimeDir);
  const logsDir = join(dir, "logs");
  mkdirSync(logsDir);
  const [platformPort, portPortalA, portPortalB, nginxPort, redisPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const redis = await startRedis(redisServer, redisPort);
  const ports = { A: portPortalA, B: portPortalB };
  const portals = await startPortals({ platformPort, nginxPort, redisPort, portalPorts: ports, logsDir });
  const { address } = portals;
  const { paths, checker } = await startNginx({
    nginx,
    nginxPort,
    upstreams: [address("A"), address("B")],
    publicBuildDir,
    runtimeDir,
    user: unprivilegedUser(),
  });
  return {
    ...portals,
    redis,
    platformPort,
    ports,
    paths,
    checker,
    browser: new Browser(`http://127.0.0.1:${nginxPort}`),
    toInstances: new Browser(`http://${address("A")}`),
    instanceUrl: { A: `http://${address("A")}`, B: `http://${address("B")}` },
  };
}

/** An instance's requests since `from` that a user made (not the health checks). */
function journeyRequests(entry, from = 0) {
  return entry.lines.filter(
    (l) => l.at >= from && l.event?.message === "request" && !["/readyz", "/healthz"].includes(l.event.path),
  );
}

/** Whether the upstream check changed nginx's upstreams since `from` in the way `test` says. */
function upstreamChange(checker, from, test) {
  return checker.lines.some((l) => l.at >= from && l.event?.message === "upstreams changed" && test(l.event));
}

/** Whether the upstream check said `message` of `instance` since `from`. */
function checkerSays(checker, from, message, instance) {
  return checker.lines.some((l) => l.at >= from && l.event?.message === message && l.event.instance === instance);
}

/** The lines of nginx's access log. */
function accessLines(cluster) {
  return readFileSync(cluster.paths.accessLog, "utf8").split("\n");
}

// ---------------------------------------------------------------------------------------------
// The phases

/** Puts the platform in maintenance, or takes it out. */
async function switchMaintenance(cluster, on) {
  const res = await fetch(`http://127.0.0.1:${cluster.platformPort}/dev/maintenance`, {
    method: "PUT",
    headers: { "Content-Type": "application/json", [CALLER_KEY_HEADER]: CALLER_KEY },
    body: JSON.stringify({ maintenance: on }),
  });
  if (!res.ok) throw new Failure(`the platform's maintenance switch answered ${res.status}`);
}

/** The platform in maintenance: no instance is ready, nginx keeps both, the portal answers. */
async function checkMaintenance(cluster) {
  const { browser, checker, address, paths } = cluster;
  const maintenanceFrom = performance.now();
  await switchMaintenance(cluster, true);
  await until(
    "the upstream check finding neither instance ready",
    () =>
      checkerSays(checker, maintenanceFrom, "instance not ready", address("A")) &&
      checkerSays(checker, maintenanceFrom, "instance not ready", address("B")),
    10_000,
  );
  const home = await browser.request("/clients/home");
  const maintenancePage = await browser.request(home.location ?? "/clients/home");
  await sleep(200);
  const maintenanceLine = accessLines(cluster).find((line) => line.includes('"GET /maintenance '));
  expect(
    parseUpstreams(readFileSync(paths.upstreams, "utf8")).down.length === 0,
    "platform in maintenance: neither instance is ready, and the checker keeps both in nginx",
  );
  expect(
    home.location === "/maintenance" &&
      maintenancePage.status === 503 &&
      maintenancePage.text.includes("</html>") &&
      /upstream_status=503 /.test(maintenanceLine ?? ""),
    `the portal's maintenance page reaches the user through nginx, not retried (${home.status} → ${home.location}, ${maintenancePage.status}; ${maintenanceLine?.replace(/^.*?"GET/, '"GET')})`,
  );
}

/** The platform out of maintenance: both instances ready again and answering. */
async function checkMaintenanceOver(cluster) {
  const { browser, checker, address } = cluster;
  const maintenanceOff = performance.now();
  await switchMaintenance(cluster, false);
  await until(
    "the upstream check finding both instances ready again",
    () =>
      checkerSays(checker, maintenanceOff, "instance ready", address("A")) &&
      checkerSays(checker, maintenanceOff, "instance ready", address("B")),
    10_000,
  );
  // each instance keeps the platform's health a few seconds (app/planning/maintenance.server.ts)
  for (let ok = 0; ok < 2;) {
    ok = (await browser.request("/login?userType=client")).status === 200 ? ok + 1 : 0;
    if (performance.now() - maintenanceOff > 15_000) throw new Failure("the portal leaving maintenance within 15 s");
    if (ok < 2) await sleep(250);
  }
  note(
    `maintenance over: both instances ready and answering ${seconds(performance.now() - maintenanceOff)} after it ended`,
  );
}

/**
 * Sign-in posts from one address, alternately to A and to B: in each instance's memory they
 * would be allowed twice the limit; shared (Redis), the limit once.
 */
async function checkSignInLimitShared({ toInstances, instanceUrl }) {
  const byAddress = [];
  for (let i = 0; i < SIGN_IN_LIMIT * 2; i++) {
    const name = i % 2 === 0 ? "A" : "B";
    byAddress.push({
      name,
      ...(await wrongPassword(toInstances, instanceUrl[name], "203.0.113.7", `scale.nobody.${i}`)),
    });
  }
  const allowed = byAddress.filter((r) => r.status === 401);
  const refused = byAddress.filter((r) => r.status === 429);
  expect(
    allowed.length === SIGN_IN_LIMIT &&
      byAddress.slice(0, SIGN_IN_LIMIT).every((r) => r.status === 401) &&
      refused.length === SIGN_IN_LIMIT &&
      new Set(refused.map((r) => r.name)).size === 2 &&
      refused.every(
        (r) =>
          Number(r.retryAfter) > 0 &&
          Number(r.retryAfter) <= 300 &&
          r.text.includes("Too many attempts from your connection"),
      ),
    `${byAddress.length} sign-in posts from one address, alternately to A and B: the limit of ${SIGN_IN_LIMIT} holds across both (${byAddress.map((r) => `${r.name} ${r.status}`).join(", ")}; Retry-After ${refused[0]?.retryAfter ?? "-"} s)`,
  );
}

/**
 * A username's failed sign-ins from many addresses, alternately to A and B: refused after the
 * limit, on either instance, before the platform is asked.
 */
async function checkFailuresLimitShared({ toInstances, instanceUrl }) {
  const byUsername = [];
  for (let i = 0; i <= FAILURES_LIMIT; i++) {
    const name = i % 2 === 0 ? "B" : "A";
    byUsername.push({
      name,
      ...(await wrongPassword(
        toInstances,
        instanceUrl[name],
        `198.51.100.${i + 1}`,
        i % 2 ? "Scale.Target" : "scale.target ",
      )),
    });
  }
  expect(
    byUsername.slice(0, FAILURES_LIMIT).every((r) => r.status === 401) && byUsername[FAILURES_LIMIT].status === 429,
    `a username's failed sign-ins from ${byUsername.length} addresses, alternately to B and A: the limit of ${FAILURES_LIMIT} holds across both (${byUsername.map((r) => `${r.name} ${r.status}`).join(", ")})`,
  );
}

const PAGES = [
  "/clients/home",
  "/clients/analysis",
  "/clients/personal-details",
  "/clients/documents-and-messages",
  "/clients/preferences",
  "/clients/adviser-details",
];

/** demo.client signs in through nginx and gets every page; the login page is kept (it names the assets). */
async function signInAndBrowse({ browser }) {
  const signInStarted = performance.now();
  const login = await browser.page("/login?userType=client");
  const signIn = await browser.post("/login", {
    csrf: hiddenField(login, "csrf"),
    name__confirm: "",
    from__confirm: hiddenField(login, "from__confirm"),
    userType: "client",
    username: "demo.client",
    password: "Demo-pass-1",
  });
  expect(
    signIn.status === 302 && !/\/login/.test(signIn.location ?? ""),
    `demo.client signs in through nginx (${signIn.status} → ${signIn.location})`,
  );
  const landing = await browser.land(signIn.location);
  note(`signed in in ${seconds(performance.now() - signInStarted)}, on ${landing}`);

  const pageTimes = [];
  for (const path of PAGES) {
    const from = performance.now();
    await browser.page(path);
    pageTimes.push(performance.now() - from);
  }
  pass(
    `${PAGES.length} pages answer 200 through nginx (median ${Math.round(pageTimes.sort((a, b) => a - b)[pageTimes.length >> 1])} ms)`,
  );
  return { login, signInStarted };
}

/** One request's id, made by nginx, in the answer and in every log it went through. */
async function checkRequestIdTraced({ browser, instances, platformProcess, paths }) {
  const traced = await browser.request("/clients/home", { headers: { "X-Request-Id": "made-by-the-client" } });
  const requestId = traced.headers["x-request-id"] ?? "";
  await sleep(200);
  const logLines = (file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes(`"requestId":"${requestId}"`));
  const portalLines = ["A", "B"].flatMap((name) =>
    logLines(instances[name].logFile).map((line) => ({ name, event: JSON.parse(line) })),
  );
  const platformLines = logLines(platformProcess.logFile).map((line) => JSON.parse(line));
  expect(
    traced.status === 200 &&
      /^[0-9a-f]{32}$/.test(requestId) &&
      readFileSync(paths.accessLog, "utf8").includes(`request_id=${requestId}`) &&
      portalLines.some((l) => l.event.message === "request" && l.event.path === "/clients/home") &&
      platformLines.length > 0 &&
      platformLines.every((e) => e.message === "request" && e.status === 200),
    `one request's id (${requestId}, nginx's, not the client's) is in the answer, nginx's access log, instance ${portalLines[0]?.name ?? "-"}'s log and the platform's log (${platformLines.length} platform calls: ${platformLines.map((e) => e.path).join(", ")})`,
  );
}

/** Without nginx, an instance keeps a sane id and replaces one that is not. */
async function checkRequestIdDirect({ toInstances, instanceUrl, instances }) {
  const [kept, replaced] = [`scale.direct:${process.pid}`, `not sane ${"x".repeat(200)}`];
  const keptAnswer = await toInstances.request(`${instanceUrl.B}/login?userType=client`, {
    headers: { "X-Request-Id": kept },
  });
  const replacedAnswer = await toInstances.request(`${instanceUrl.B}/login?userType=client`, {
    headers: { "X-Request-Id": replaced },
  });
  await sleep(200);
  expect(
    keptAnswer.headers["x-request-id"] === kept &&
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(
        replacedAnswer.headers["x-request-id"] ?? "",
      ) &&
      readFileSync(instances.B.logFile, "utf8").includes(`"requestId":"${kept}"`) &&
      !readFileSync(instances.B.logFile, "utf8").includes("not sane"),
    `an instance asked directly keeps a sane X-Request-Id (${kept}) and replaces one that is not (${replacedAnswer.headers["x-request-id"]})`,
  );
}

/** The user's work before the kill: preferences saved (each box turned over) and a secure message sent. */
async function saveWorkBeforeKill({ browser }, run) {
  const before = preferencesOf(await browser.page("/clients/preferences"));
  const firstChoice = { email: !before.email, post: !before.post, sms: !before.sms };
  const saved = await savePreferences(browser, firstChoice);
  expect(
    JSON.stringify(saved) === JSON.stringify(firstChoice),
    `preferences saved and read back: ${JSON.stringify(saved)}`,
  );
  const firstSubject = `Scale ${run} before the kill`;
  await sendMessage(browser, firstSubject);
  expect(
    (await sentFolder(browser)).includes(firstSubject),
    `secure message "${firstSubject}" sent and in the Sent folder`,
  );
  return { firstChoice, firstSubject };
}

/** The JavaScript and CSS the pages name come from disk; a file nginx lacks is asked of the portal. */
async function checkBuildFiles(cluster, login, run) {
  const { browser, ports } = cluster;
  const asset = /(?:href|src)="(\/build\/[^"]+\.(?:js|css))"/.exec(login)?.[1];
  if (!asset) throw new Failure("the login page names a /build/ file");
  const assetAnswer = await browser.request(asset);
  const missing = `/build/not-in-this-build-${run}.js`;
  const missingAnswer = await browser.request(missing);
  await sleep(200);
  const access = accessLines(cluster);
  const accessLine = (path) => access.find((line) => line.includes(`"GET ${path} `)) ?? "";
  expect(
    assetAnswer.status === 200 &&
      /immutable/.test(assetAnswer.headers["cache-control"] ?? "") &&
      /upstream=- /.test(accessLine(asset)),
    `${asset} served by nginx from disk with "${assetAnswer.headers["cache-control"]}"`,
  );
  expect(
    missingAnswer.status === 404 &&
      new RegExp(`upstream=127\\.0\\.0\\.1:(${ports.A}|${ports.B}) `).test(accessLine(missing)),
    `a /build/ file missing on disk is asked of the portal (${missingAnswer.status})`,
  );
}

/** Requests since sign-in landed on both instances: round-robin, no stickiness. */
function checkRoundRobin({ instances }, signInStarted) {
  const servedA = journeyRequests(instances.A, signInStarted).length;
  const servedB = journeyRequests(instances.B, signInStarted).length;
  expect(
    servedA > 0 && servedB > 0,
    `requests landed on both instances, round-robin without stickiness (A ${servedA}, B ${servedB})`,
  );
}

/** SIGKILL instance A with page loads in flight on it: nginx has B answer them. Returns when A died. */
async function killAWithLoadsInFlight({ browser, relays, instances }) {
  relays.A.mode = "hold";
  const inFlight = ["/clients/home", "/clients/preferences", "/clients/home", "/clients/personal-details"].map(
    (path) => {
      const load = { path, done: false };
      load.promise = browser.request(path).then((res) => {
        load.done = true;
        return res;
      });
      return load;
    },
  );
  await until("a page load in flight on A", () => relays.A.held > 0, 5_000);
  await sleep(1_000); // the loads that went to B finish; those on A wait for the platform
  const heldOnA = inFlight.filter((load) => !load.done).length;
  const killedAt = performance.now();
  instances.A.child.kill("SIGKILL");
  await instances.A.exited;
  relays.A.release();
  note(`instance A killed (SIGKILL) with ${heldOnA} page load(s) in flight on it`);
  const answers = await Promise.all(inFlight.map((load) => load.promise));
  expect(
    heldOnA > 0 && answers.every((res) => res.status === 200 && res.complete && res.text.includes("</html>")),
    `the ${heldOnA} page load(s) in flight on A were answered by B: ${answers.map((res) => res.status).join(", ")} (nginx retries a GET the dead instance never answered)`,
  );
  return killedAt;
}

/** After the kill: still signed in, the earlier work there, new work saved, every page answers. */
async function checkAfterKill({ browser }, { firstChoice, firstSubject }, run) {
  const afterKill = performance.now();
  const stillSaved = preferencesOf(await browser.page("/clients/preferences"));
  expect(
    JSON.stringify(stillSaved) === JSON.stringify(firstChoice),
    "still signed in after the kill: the preferences page shows what was saved before it",
  );
  expect(
    (await sentFolder(browser)).includes(firstSubject),
    "the message sent before the kill is still in the Sent folder",
  );
  const secondChoice = { email: !firstChoice.email, post: firstChoice.post, sms: !firstChoice.sms };
  const savedAgain = await savePreferences(browser, secondChoice);
  expect(
    JSON.stringify(savedAgain) === JSON.stringify(secondChoice),
    `preferences saved again after the kill: ${JSON.stringify(savedAgain)}`,
  );
  const secondSubject = `Scale ${run} after the kill`;
  await sendMessage(browser, secondSubject);
  const sentAfter = await sentFolder(browser);
  expect(sentAfter.includes(firstSubject) && sentAfter.includes(secondSubject), "both messages are in the Sent folder");
  for (const path of PAGES) await browser.page(path);
  pass(
    `every page still answers 200 after the kill (${seconds(performance.now() - afterKill)} for the post-kill journey, all on B)`,
  );
  return secondChoice;
}

/** The upstream check marks the killed A down; restarted, as an orchestrator would, A joins again. */
async function restartA({ browser, checker, address, instances, startInstance }, killedAt) {
  const markedDown = await until(
    "the upstream check marking A down",
    () => upstreamChange(checker, killedAt, (e) => e.down.includes(address("A"))),
    15_000,
  );
  pass(`the upstream check marked A down ${seconds(markedDown - killedAt)} after the kill`);

  const restartedAt = performance.now();
  startInstance("A");
  await waitFor(`http://${address("A")}/healthz`, 30);
  const markedUp = await until(
    "the upstream check taking A back",
    () => upstreamChange(checker, restartedAt, (e) => e.down.length === 0),
    15_000,
  );
  pass(`restarted A is back in rotation ${seconds(markedUp - restartedAt)} after its start`);
  const rejoined = performance.now();
  for (const path of PAGES) await browser.page(path);
  await sleep(200);
  expect(
    journeyRequests(instances.A, rejoined).length > 0,
    `the restarted A serves the same session (${journeyRequests(instances.A, rejoined).length} of ${PAGES.length} pages)`,
  );
}

/**
 * A page load through nginx that B's relay slows (tried until one lands on B), with its answer
 * still to come (wrapped: an async function returning the promise itself would wait for it).
 */
async function slowLoadOnB({ browser, relays }) {
  for (let attempt = 0; attempt < 8; attempt++) {
    const heldBefore = relays.B.held;
    relays.B.slowOnce = SLOW_MS;
    const load = browser.request("/clients/preferences");
    const outcome = await Promise.race([
      load.then(() => "answered"),
      until("", () => relays.B.held > heldBefore, SLOW_MS).then(
        () => "held",
        () => "answered",
      ),
    ]);
    if (outcome === "held") return { answer: load };
    relays.B.slowOnce = 0;
    const res = await load;
    if (res.status !== 200) throw new Failure(`/clients/preferences answered ${res.status}`);
  }
  throw new Failure("a request on B");
}

/**
 * A client that keeps its connection to B open (as the upstream check's fetch and nginx's
 * keep-alive pool do), with a page load held on it: `ask` asks B on that one connection.
 */
async function keptAliveLoadOnB({ browser, relays, ports }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ask = (path, headers = {}) =>
    new Promise((resolveAnswer) => {
      const req = httpRequest({ host: "127.0.0.1", port: ports.B, path, headers, agent }, (res) => {
        res.resume();
        res.on("end", () => resolveAnswer({ status: res.statusCode, connection: res.headers.connection ?? "" }));
      });
      req.on("error", (error) => resolveAnswer({ status: error.code ?? "error", connection: "" }));
      req.end();
    });
  const heldBefore = relays.B.held;
  relays.B.slowOnce = SLOW_MS / 2;
  const load = ask("/clients/preferences", {
    Cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    "X-Forwarded-For": "127.0.0.1",
  });
  await until("a kept-alive page load held on B", () => relays.B.held > heldBefore, SLOW_MS);
  return { agent, ask, load };
}

/**
 * SIGTERM instance B during a slow request: pages come from A meanwhile, the request in flight on
 * B completes, B exits 0; the kept-alive client's /readyz on its connection during the drain is
 * never ready and that connection closes (else B would never finish draining).
 */
async function checkDrainOfB(cluster, secondChoice) {
  const { browser, instances, checker, address } = cluster;
  const slow = (await slowLoadOnB(cluster)).answer;
  const keptAlive = await keptAliveLoadOnB(cluster);
  const slowStarted = performance.now();
  const termAt = performance.now();
  instances.B.child.kill("SIGTERM");
  const readyDuringDrain = [];
  let directAnswer = null;
  const polling = (async () => {
    directAnswer = await keptAlive.load;
    while (
      instances.B.child.exitCode === null &&
      instances.B.child.signalCode === null &&
      performance.now() - termAt < 12_000
    ) {
      readyDuringDrain.push(await keptAlive.ask("/readyz"));
      await sleep(250);
    }
  })();
  note(`instance B sent SIGTERM with a request in flight (its platform call takes ${seconds(SLOW_MS)})`);
  const duringDrain = [];
  for (let i = 0; i < 4; i++) duringDrain.push((await browser.request("/clients/home")).status);
  expect(
    duringDrain.every((status) => status === 200),
    `pages during B's drain answer ${duringDrain.join(", ")} (from A)`,
  );
  const slowAnswer = await slow;
  const slowDone = performance.now();
  expect(
    slowAnswer.status === 200 &&
      slowAnswer.complete &&
      JSON.stringify(preferencesOf(slowAnswer.text)) === JSON.stringify(secondChoice),
    `the request in flight on B completes during the drain: ${slowAnswer.status} after ${seconds(slowDone - slowStarted)}`,
  );
  const exit = await Promise.race([instances.B.exited, sleep(15_000).then(() => null)]);
  expect(
    exit?.code === 0,
    `B drained and exited ${exit ? `with ${exit.code ?? exit.signal}` : "(still running)"} ${exit ? `${seconds(exit.at - termAt)} after SIGTERM` : ""}`.trim(),
  );
  await polling;
  keptAlive.agent.destroy();
  expect(
    directAnswer?.status === 200 &&
      readyDuringDrain.length > 0 &&
      readyDuringDrain.every((r) => r.status !== 200 && (r.status !== 503 || r.connection === "close")),
    `a kept-alive client's page load in flight on B answers ${directAnswer?.status}; its /readyz on that connection during the drain is never ready and the connection closes (${readyDuringDrain.map((r) => r.status).join(", ")})`,
  );
  await until(
    "the upstream check marking B down",
    () => upstreamChange(checker, termAt, (e) => e.down.includes(address("B"))),
    15_000,
  );
  const last = preferencesOf(await browser.page("/clients/preferences"));
  expect(
    JSON.stringify(last) === JSON.stringify(secondChoice),
    "after both stops the user is signed in and the last preferences are there (A alone)",
  );
}

/** Redis stops: each instance keeps the limits in its own memory, and says so. */
async function checkWithoutRedis({ redis, toInstances, instanceUrl, instances, browser }, secondChoice) {
  const redisStopped = performance.now();
  redis.child.kill("SIGTERM");
  await redis.exited;
  note("redis-server stopped");
  const withoutRedis = [];
  for (let i = 0; i <= SIGN_IN_LIMIT; i++)
    withoutRedis.push(await wrongPassword(toInstances, instanceUrl.A, "203.0.113.8", `scale.alone.${i}`));
  const slowest = Math.max(...withoutRedis.map((r) => r.ms));
  expect(
    withoutRedis.slice(0, SIGN_IN_LIMIT).every((r) => r.status === 401) &&
      withoutRedis[SIGN_IN_LIMIT].status === 429 &&
      slowest < 2_000,
    `with Redis stopped, A still answers sign-ins and holds the limit in its memory (${withoutRedis.map((r) => r.status).join(", ")}; slowest ${seconds(slowest)})`,
  );
  const warning = instances.A.lines.find(
    (l) => l.at >= redisStopped && l.event?.level === "warn" && /Redis unreachable/.test(l.event.message),
  );
  expect(Boolean(warning), `A logs a warning: "${warning?.event.message ?? "none"}"`);
  expect(
    JSON.stringify(preferencesOf(await browser.page("/clients/preferences"))) === JSON.stringify(secondChoice),
    "with Redis stopped, the signed-in user's pages still answer through nginx",
  );
}

/** nginx answered nothing with a 5xx of its own or of the portal's (the maintenance page aside). */
async function checkNoServerErrors(cluster) {
  await sleep(200);
  const failed = accessLines(cluster).filter((line) => /" 5\d\d /.test(line) && !line.includes('"GET /maintenance '));
  expect(
    failed.length === 0,
    `no 5xx in nginx's access log but the maintenance page${failed.length ? `:\n${failed.join("\n")}` : ""}`,
  );
  const reloads = cluster.checker.lines.filter((l) => l.event?.message === "nginx reloaded").length;
  note(`upstream check reloaded nginx ${reloads} time(s); total ${elapsed()}`);
}

async function main() {
  const cluster = await startCluster();
  await checkMaintenance(cluster);
  await checkMaintenanceOver(cluster);
  await checkSignInLimitShared(cluster);
  await checkFailuresLimitShared(cluster);
  const { login, signInStarted } = await signInAndBrowse(cluster);
  await checkRequestIdTraced(cluster);
  await checkRequestIdDirect(cluster);
  const run = Math.random().toString(36).slice(2, 8);
  const work = await saveWorkBeforeKill(cluster, run);
  await checkBuildFiles(cluster, login, run);
  checkRoundRobin(cluster, signInStarted);
  const killedAt = await killAWithLoadsInFlight(cluster);
  const secondChoice = await checkAfterKill(cluster, work, run);
  await restartA(cluster, killedAt);
  await checkDrainOfB(cluster, secondChoice);
  await checkWithoutRedis(cluster, secondChoice);
  await checkNoServerErrors(cluster);
}

let code = 0;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    void stopAll().then(() => process.exit(130));
  });
}
try {
  await main();
  console.log(`PASS scale test (${elapsed()})`);
} catch (error) {
  code = 1;
  console.log(`FAIL ${error instanceof Failure ? error.message : (error?.stack ?? String(error))}`);
  for (const { name, tail } of children) if (tail.length) console.log(`--- ${name} (stderr)\n${tail.join("\n")}`);
  if (nginxErrorLog && existsSync(nginxErrorLog)) {
    console.log(`--- nginx error.log\n${readFileSync(nginxErrorLog, "utf8").trim().split("\n").slice(-15).join("\n")}`);
  }
} finally {
  await stopAll();
}
process.exit(code);
