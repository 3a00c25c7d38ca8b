import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PORTAL_NODE_FLAGS, PORTAL_PROCESS_ENV } from "../../scripts/portal-node-flags.mjs";
import { parseUnit, type Unit, valueOf } from "./unit-file";

// ASVS 4.0.3 V1.2.1 (docs/decisions/189): the systemd units in deploy/systemd run the portal, the
// platform, nginx and Redis each as an account of its own, none of them root, with the same
// hardening; the accounts are declared for systemd-sysusers. Where systemd-analyze is installed,
// systemd itself reads the units and scores their exposure.

const DIR = new URL("../../deploy/systemd/", import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DIR), "utf8");

const value = valueOf;

const SERVICES = {
  portal: "client-online-portal@.service",
  platform: "client-online-platform.service",
  nginx: "client-online-nginx.service",
  upstreamCheck: "client-online-upstream-check.service",
} as const;
const REDIS = "redis-server.service.d/client-online.conf";

/** What every component's unit sets: no privileges, a read-only system, nothing of the host's to see. */
const HARDENING: Record<string, string> = {
  NoNewPrivileges: "yes",
  CapabilityBoundingSet: "",
  AmbientCapabilities: "",
  ProtectSystem: "strict",
  ProtectHome: "yes",
  PrivateTmp: "yes",
  PrivateDevices: "yes",
  ProtectKernelTunables: "yes",
  ProtectKernelModules: "yes",
  ProtectKernelLogs: "yes",
  ProtectControlGroups: "yes",
  ProtectClock: "yes",
  ProtectHostname: "yes",
  ProtectProc: "invisible",
  RestrictNamespaces: "yes",
  RestrictRealtime: "yes",
  RestrictSUIDSGID: "yes",
  RestrictAddressFamilies: "AF_UNIX AF_INET AF_INET6",
  LockPersonality: "yes",
  RemoveIPC: "yes",
  SystemCallArchitectures: "native",
};

const units = Object.fromEntries(
  Object.entries(SERVICES).map(([name, file]) => [name, parseUnit(read(file))]),
) as Record<keyof typeof SERVICES, Unit>;
const redis = parseUnit(read(REDIS));

describe("the systemd units", () => {
  it("are the only units in deploy/systemd, with the Redis drop-in and the accounts", () => {
    const files = readdirSync(DIR).sort();
    expect(files).toEqual([...Object.values(SERVICES), "client-online.sysusers.conf", "redis-server.service.d"].sort());
  });

  it("run each component as an account of its own, never root; the checker as nginx's, which it reloads", () => {
    const users = {
      portal: value(units.portal, "Service", "User"),
      platform: value(units.platform, "Service", "User"),
      nginx: value(units.nginx, "Service", "User"),
      redis: value(redis, "Service", "User"),
    };
    expect(users).toEqual({
      portal: "client-online-portal",
      platform: "client-online-platform",
      nginx: "client-online-nginx",
      redis: "redis",
    });
    expect(value(units.upstreamCheck, "Service", "User")).toBe("client-online-nginx");
    for (const unit of [...Object.values(units), redis]) {
      const user = value(unit, "Service", "User");
      expect(value(unit, "Service", "Group")).toBe(user);
      expect(user).not.toMatch(/^(root|0)$/);
      expect(unit.get("Service")?.has("DynamicUser")).toBe(false);
    }
  });

  it("declare the accounts for systemd-sysusers, as system accounts that cannot log in", () => {
    const accounts = read("client-online.sysusers.conf")
      .split("\n")
      .filter((line) => line.trim() && !line.startsWith("#"))
      .map((line) => line.trim().split(/\s+/));
    expect(accounts.map(([type, name]) => `${type} ${name}`)).toEqual([
      "u client-online-portal",
      "u client-online-platform",
      "u client-online-nginx",
    ]);
    // "-": a system account's id chosen by systemd-sysusers; no shell is given, so none logs in
    for (const account of accounts) expect(account[2]).toBe("-");
  });

  it("harden every component alike, Redis's drop-in too", () => {
    for (const [name, unit] of [...Object.entries(units), ["redis", redis] as const]) {
      for (const [key, expected] of Object.entries(HARDENING)) {
        expect(value(unit, "Service", key), `${name}: ${key}`).toBe(expected);
      }
      const filters = unit.get("Service")?.get("SystemCallFilter") ?? [];
      expect(filters, name).toEqual(["@system-service", "~@privileged"]);
      expect(value(unit, "Service", "UMask"), name).toMatch(/^00[27]7$/);
    }
    // V8's compiler writes code it then runs: Node's processes cannot deny it; nginx and Redis do
    expect(value(units.nginx, "Service", "MemoryDenyWriteExecute")).toBe("yes");
    expect(value(redis, "Service", "MemoryDenyWriteExecute")).toBe("yes");
  });

  it("start the portal with its heap limits and arenas, and nothing of development", () => {
    const start = value(units.portal, "Service", "ExecStart")!;
    expect(start).toBe(`/usr/bin/node ${PORTAL_NODE_FLAGS.join(" ")} scripts/portal-server.mjs`);
    const environment = (units.portal.get("Service")?.get("Environment") ?? []).join(" ").split(/\s+/);
    for (const [key, setting] of Object.entries(PORTAL_PROCESS_ENV)) expect(environment).toContain(`${key}=${setting}`);
    expect(environment).toContain("NODE_ENV=production");
    for (const unit of Object.values(units)) {
      expect(JSON.stringify([...unit.get("Service")!])).not.toContain("PLATFORM_DEV_ENDPOINTS");
      for (const command of ["ExecStart", "ExecStartPre", "ExecReload"]) {
        for (const line of unit.get("Service")?.get(command) ?? []) expect(line).toMatch(/^\//);
      }
    }
  });

  it("keep the platform's database in its own state directory, closed to others", () => {
    expect(value(units.platform, "Service", "StateDirectory")).toBe("client-online-platform");
    expect(value(units.platform, "Service", "StateDirectoryMode")).toBe("0700");
    expect(value(units.platform, "Service", "Environment")).toContain(
      "PLATFORM_DB=/var/lib/client-online-platform/platform.sqlite",
    );
  });

  it("run nginx on the configuration rendered into its state directory, its logs to journald", () => {
    const runtime = "-p /var/lib/client-online-nginx -c /var/lib/client-online-nginx/nginx.conf";
    expect(value(units.nginx, "Service", "ExecStart")).toBe(`/usr/sbin/nginx -e stderr ${runtime}`);
    expect(value(units.nginx, "Service", "ExecStartPre")).toBe(`/usr/sbin/nginx -t -q -e stderr ${runtime}`);
    expect(read(SERVICES.nginx)).toContain("--runtime-dir /var/lib/client-online-nginx --logs syslog");
    expect(value(units.upstreamCheck, "Service", "ExecStart")).toContain("--runtime-dir /var/lib/client-online-nginx");
  });
});

const analyze = spawnSync("systemd-analyze", ["--version"], { encoding: "utf8" });
const hasAnalyze = analyze.status === 0;

describe.runIf(hasAnalyze)("systemd's own reading of the units", () => {
  const dir = mkdtempSync(join(tmpdir(), "systemd-units-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // a template is verified as one of its instances
  const files = Object.values(SERVICES).map((file) => {
    const instance = file.replace("@.service", "@3001.service");
    copyFileSync(new URL(file, DIR), join(dir, file));
    return { file, instance };
  });
  /** What a machine without Node or nginx at the units' paths cannot check. */
  const absent = (line: string) =>
    ["/usr/bin/node", "/usr/sbin/nginx"].some((path) => line.includes(`Command ${path} is not`) && !existsSync(path));

  it("finds nothing wrong in them (systemd-analyze verify)", () => {
    for (const { instance } of files) {
      const result = spawnSync("systemd-analyze", ["verify", "--man=no", join(dir, instance)], {
        encoding: "utf8",
        cwd: dir,
      });
      const complaints = `${result.stdout}${result.stderr}`.split("\n").filter((line) => line.trim() && !absent(line));
      expect(complaints, instance).toEqual([]);
    }
  });

  it("scores each one's exposure as OK, 2.0 or less of 10 (systemd-analyze security)", () => {
    for (const { file } of files) {
      const output = execFileSync(
        "systemd-analyze",
        ["security", "--offline=true", "--no-pager", "--threshold=20", join(dir, file)],
        { encoding: "utf8" },
      );
      const score = Number(/Overall exposure level for \S+: ([\d.]+)/.exec(output)?.[1]);
      expect(score, file).toBeLessThanOrEqual(2);
    }
  });
});
