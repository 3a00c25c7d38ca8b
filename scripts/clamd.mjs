// @ts-check
// A ClamAV daemon for the tests (docs/decisions/192): Debian's clamd (`apt-get install
// clamav-daemon`, which .ci/run installs; another binary with CLAMD) in the foreground, on a socket
// in a directory of its own, with one signature of its own: the EICAR test file, the standard
// harmless file every antivirus reports. The machines that run the tests cannot reach ClamAV's
// signature mirrors, and need not: clamd loads any signature file in its DatabaseDirectory (an
// .ndb is a name, a target type, an offset and the bytes in hex), as it loads freshclam's in
// production. A missing clamd fails the test that needs it, loudly, never skips it.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const CLAMD = process.env.CLAMD ?? "/usr/sbin/clamd";

/**
 * The EICAR test file's 68 bytes, put together here so that no file of the repository is itself
 * reported by a scanner on a developer's machine.
 */
export const EICAR = Buffer.from(
  ["X5O!P%@AP[4\\PZX54(P^)7CC)7}$", "EICAR-STANDARD-ANTIVIRUS-", "TEST-FILE!$H+H*"].join(""),
  "latin1",
);

/** The name clamd reports for it (a signature outside ClamAV's own databases is marked UNOFFICIAL). */
export const EICAR_SIGNATURE = "Client-Online.Test.EICAR.UNOFFICIAL";

/**
 * Whether the clamd at `socket` answers PING with PONG.
 * @param {string} socket
 * @returns {Promise<boolean>}
 */
function pingClamd(socket, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const connection = createConnection({ path: socket });
    let answer = "";
    const done = (/** @type {boolean} */ ok) => {
      connection.destroy();
      resolve(ok);
    };
    connection.setTimeout(timeoutMs, () => done(false));
    connection.on("connect", () => connection.write("zPING\0"));
    connection.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (answer.includes("\0")) done(answer.startsWith("PONG"));
    });
    connection.on("error", () => done(false));
    connection.on("close", () => done(answer.startsWith("PONG")));
  });
}

/**
 * Starts clamd and waits until it answers. Returns its socket (`CLAMD_ADDRESS`,
 * `PLATFORM_CLAMD_ADDRESS`), `stop` to end it, and `lines` of what it wrote.
 */
export async function startClamd({ timeoutMs = 60_000 } = {}) {
  if (!existsSync(CLAMD)) {
    throw new Error(
      `${CLAMD} is missing: install Debian's clamav-daemon (.ci/run does) or set CLAMD to clamd's path; the tests of virus scanning need it`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "client-online-clamd-"));
  const database = join(dir, "db");
  mkdirSync(database);
  writeFileSync(join(database, "client-online-test.ndb"), `Client-Online.Test.EICAR:0:*:${EICAR.toString("hex")}\n`);
  const socket = join(dir, "clamd.sock");
  const config = join(dir, "clamd.conf");
  writeFileSync(
    config,
    [
      "Foreground yes",
      `LocalSocket ${socket}`,
      `DatabaseDirectory ${database}`,
      `TemporaryDirectory ${dir}`,
      `PidFile ${join(dir, "clamd.pid")}`,
      // the uploads' limit is 10 MB a file (spec 002 §9); clamd's default stream limit is 25 MB
      "StreamMaxLength 25M",
      "MaxThreads 4",
      "LogTime yes",
      "",
    ].join("\n"),
  );
  const child = spawn(CLAMD, ["--foreground", `--config-file=${config}`], { stdio: ["ignore", "pipe", "pipe"] });
  /** @type {string[]} */
  const lines = [];
  const keep = (/** @type {Buffer} */ chunk) => lines.push(...chunk.toString().split("\n").filter(Boolean));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited = /** @type {number | null | string} */ (null);
  child.on("exit", (code, signal) => (exited = code ?? signal));
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await pingClamd(socket))) {
    if (exited !== null || Date.now() > deadline) {
      stop();
      throw new Error(
        `clamd did not start (${exited !== null ? `exited with ${exited}` : "no answer"}): ${lines.slice(-10).join(" | ")}`,
      );
    }
    await sleep(100);
  }
  return { socket, stop, lines };
}
