// nginx in front of several portal instances (docs/decisions/102-load-balancer.md): round-robin
// without stickiness (the session is a cookie every instance can read), one proxy hop in
// X-Forwarded-For (the portal runs with TRUST_PROXY_HOPS=1), the fingerprinted /build/ files from
// disk, passive health checks here and the active /readyz check in deploy/upstream-check.mjs.
//
// Operators and `npm run test:scale` render the same file:
//
//   node deploy/nginx.mjs --listen 8080 --runtime-dir /srv/client-online/nginx \
//     --public-build-dir /srv/client-online/public/build 127.0.0.1:3001 127.0.0.1:3002
//   nginx -p /srv/client-online/nginx -c /srv/client-online/nginx/nginx.conf
//
// Everything nginx writes (pid, logs, temporary files) is under the runtime directory, so it runs
// as any user that owns that directory; no root, no /etc/nginx/nginx.conf. In production the logs
// go to the machine's syslog instead (`--logs syslog`): nginx's own user cannot then change them,
// and journald ships them (deploy/systemd, decision 189). Plain Node, no package.
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

/** The portal's body limits (docs/decisions/111): every form, and a whole message with its files. */
export const MAX_FORM_BYTES = 128 * 1024;
export const MAX_MESSAGE_BYTES = 55_000_000;

/** The name of the upstream group, and of its shared-memory zone. */
const UPSTREAM = "portal";
/** Passive check: after one failed attempt (connection refused, timeout) nginx leaves an instance alone this long. */
const PASSIVE = "max_fails=1 fail_timeout=5s";

/** Where nginx and the upstream checker find their files in a runtime directory. */
export function nginxPaths(runtimeDir) {
  const dir = resolve(runtimeDir);
  return {
    dir,
    config: join(dir, "nginx.conf"),
    upstreams: join(dir, "upstreams.conf"),
    pid: join(dir, "nginx.pid"),
    errorLog: join(dir, "error.log"),
    accessLog: join(dir, "access.log"),
    temp: join(dir, "temp"),
  };
}

/** The nginx binary: NGINX, else Debian's /usr/sbin/nginx (often not on a user's PATH), else PATH. */
export function nginxBinary(env = process.env) {
  if (env.NGINX) return env.NGINX;
  return existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
}

/** `host:port` of an instance; a bare port means this machine. */
function upstreamAddress(upstream) {
  const text = String(upstream).trim();
  const address = /^\d+$/.test(text) ? `127.0.0.1:${text}` : text;
  if (!/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/.test(address)) {
    throw new Error(`an upstream is host:port, not ${JSON.stringify(upstream)}`);
  }
  return address;
}

/**
 * The included upstream file: one `server` line per instance, `down` for those not ready. When no
 * instance is ready none is marked down, so that the portal can still answer (its maintenance page
 * when the platform is down) instead of nginx's 502.
 */
export function renderUpstreams(upstreams, notReady = []) {
  const addresses = upstreams.map(upstreamAddress);
  if (addresses.length === 0) throw new Error("at least one upstream");
  const down = new Set(notReady.map(upstreamAddress));
  const allDown = addresses.every((address) => down.has(address));
  const lines = addresses.map(
    (address) => `server ${address} ${PASSIVE}${!allDown && down.has(address) ? " down" : ""};`,
  );
  return `# Written by deploy/nginx.mjs and deploy/upstream-check.mjs: the portal instances, \`down\` when /readyz fails.\n${lines.join("\n")}\n`;
}

/** The instances listed in an upstream file, and those marked down. */
export function parseUpstreams(text) {
  const upstreams = [];
  const down = [];
  for (const match of text.matchAll(/^\s*server\s+(\S+)([^;]*);/gm)) {
    upstreams.push(match[1]);
    if (/\bdown\b/.test(match[2])) down.push(match[1]);
  }
  return { upstreams, down };
}

/** Where nginx's logs go: files in the runtime directory (the default), or the machine's syslog. */
export const LOG_DESTINATIONS = ["files", "syslog"];

/**
 * A syslog server nginx may send to: a local socket (`unix:/dev/log`, journald's and rsyslog's) or
 * a loopback address. nginx speaks syslog over plain UDP, so a log never crosses the network from
 * nginx itself: the machine's journald or rsyslog ships it on over TLS (README "Logs", decision 189).
 */
function syslogServer(server) {
  const text = String(server).trim();
  if (/^unix:\/[^\s,;'"{}]+$/.test(text)) return text;
  if (/^(?:127(?:\.\d{1,3}){3}|localhost|\[::1\])(?::\d{1,5})?$/.test(text)) return text;
  throw new Error(
    `the syslog server is a local socket (unix:/dev/log) or a loopback address, not ${JSON.stringify(server)}`,
  );
}

/**
 * The `error_log` and `access_log` destinations: the runtime directory's files, or syslog with the
 * tag `client_online_nginx` (journald's SYSLOG_IDENTIFIER), facility local7.
 */
export function logDestinations({ logTo = "files", syslog = "unix:/dev/log", paths }) {
  if (!LOG_DESTINATIONS.includes(logTo)) {
    throw new Error(`logs go to ${LOG_DESTINATIONS.join(" or ")}, not ${JSON.stringify(logTo)}`);
  }
  if (logTo === "files") return { error: paths.errorLog, access: paths.accessLog };
  const target = `syslog:server=${syslogServer(syslog)},facility=local7,tag=client_online_nginx`;
  return { error: target, access: `${target},severity=info` };
}

/**
 * The main configuration. `publicBuildDir` is the build's assets directory (`public/build`), served
 * as `/build/` (Remix's publicPath); `upstreams` are `host:port` of the instances; `runtimeDir`
 * receives pid, logs, temporary files and the upstream file; `logTo: "syslog"` sends the logs to
 * `syslog` (a local socket or a loopback address) instead.
 */
export function renderNginxConfig({
  listenPort,
  listenHost = "",
  upstreams,
  publicBuildDir,
  runtimeDir,
  daemon = false,
  workerProcesses = "auto",
  mimeTypes = "/etc/nginx/mime.types",
  logTo = "files",
  syslog = "unix:/dev/log",
}) {
  if (!Number.isInteger(Number(listenPort)) || Number(listenPort) <= 0 || Number(listenPort) > 65_535) {
    throw new Error(`listenPort must be a port, not ${JSON.stringify(listenPort)}`);
  }
  if (!upstreams?.length) throw new Error("at least one upstream");
  upstreams.forEach(upstreamAddress);
  const assets = resolve(publicBuildDir);
  // `root` (not `alias`) keeps try_files simple: /build/x.js is <parent>/build/x.js.
  if (basename(assets) !== "build") throw new Error(`publicBuildDir must be the build's "build" folder, not ${assets}`);
  const paths = nginxPaths(runtimeDir);
  const logs = logDestinations({ logTo, syslog, paths });
  const listen = listenHost
    ? `${listenHost.includes(":") ? `[${listenHost}]` : listenHost}:${listenPort}`
    : String(listenPort);

  return `# Client Online behind nginx (docs/decisions/102-load-balancer.md). Rendered by deploy/nginx.mjs; edit that, not this.
# Run as the user owning ${paths.dir}:  nginx -p ${paths.dir} -c ${paths.config}
daemon ${daemon ? "on" : "off"};
worker_processes ${workerProcesses};
pid ${paths.pid};
error_log ${logs.error} warn;

events {
  worker_connections 1024;
}

http {
  include ${mimeTypes};
  default_type application/octet-stream;
  server_tokens off;
  sendfile on;
  tcp_nopush on;

  # Which instance answered each request (upstream_addr "-" is a file served from disk), and the
  # request's id, which the instance and the platform write on their log lines (decision 125).
  # The path without its query ($uri, never $request or $request_uri): the adviser's client search
  # carries names, dates of birth and postcodes in its query (ASVS V8.3.1, decision 189).
  log_format portal '$remote_addr [$time_iso8601] "$request_method $uri $server_protocol" $status $body_bytes_sent $request_time '
                    'upstream=$upstream_addr upstream_status=$upstream_status upstream_time=$upstream_response_time '
                    'request_id=$request_id';
  access_log ${logs.access} portal;

  client_body_temp_path ${paths.temp}/client_body;
  proxy_temp_path ${paths.temp}/proxy;
  fastcgi_temp_path ${paths.temp}/fastcgi;
  uwsgi_temp_path ${paths.temp}/uwsgi;
  scgi_temp_path ${paths.temp}/scgi;

  # Every form: 128 KiB, as the portal reads them (MAX_FORM_BYTES, app/session/form-body.server.ts);
  # the compose form's location below takes a whole message (docs/decisions/111).
  client_max_body_size ${MAX_FORM_BYTES};

  gzip on;
  gzip_vary on;
  gzip_min_length 1024;
  gzip_types text/css application/javascript text/javascript application/json image/svg+xml;

  upstream ${UPSTREAM} {
    # Round-robin, no stickiness: any instance can read any session (same SESSION_SECRET).
    # The state of the passive checks and of \`down\` is shared by all workers.
    zone ${UPSTREAM} 64k;
    include ${paths.upstreams};
    keepalive 32;
    # Below Node's 5 s keep-alive timeout: nginx drops an idle connection before the portal does,
    # rather than write a request into a connection the portal is closing.
    keepalive_timeout 4s;
  }

  server {
    listen ${listen};
    server_name _;

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    # With the port: the messages page compares links with the portal's own host.
    proxy_set_header Host $http_host;
    # Exactly one hop: the portal (TRUST_PROXY_HOPS=1) reads the right-most entry, the address nginx
    # saw; whatever the client wrote further left is not trusted. Another proxy in front: one more hop.
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    # Each request's id, made here (whatever the client sent): the portal answers with it, logs it
    # and passes it to the platform (docs/decisions/125).
    proxy_set_header X-Request-Id $request_id;

    proxy_connect_timeout 2s;
    # An upload to the platform may take 120 s (compose.server.ts).
    proxy_read_timeout 180s;
    # Another instance is tried only when this one could not be reached or did not answer in time.
    # nginx never re-sends a POST it has sent, so a form is never submitted twice. Not http_503:
    # the portal's maintenance page is a real 503.
    proxy_next_upstream error timeout;
    proxy_next_upstream_timeout 10s;

    # Fingerprinted assets never change under their name: from disk, cached for a year. A file this
    # machine does not have (another build during a rolling deploy) is asked of the portal.
    location /build/ {
      root ${dirname(assets)};
      try_files $uri @portal;
      add_header Cache-Control "public, max-age=31536000, immutable";
      add_header X-Content-Type-Options nosniff;
    }

    location @portal {
      proxy_pass http://${UPSTREAM};
    }

    # The compose and reply form posts here: five files of 10,000,000 bytes, the text and the
    # multipart framing (MAX_REQUEST_BYTES in compose.server.ts). Nowhere else takes more than a form.
    location = /clients/documents-and-messages {
      client_max_body_size ${MAX_MESSAGE_BYTES};
      proxy_pass http://${UPSTREAM};
    }

    location / {
      proxy_pass http://${UPSTREAM};
    }

    # A body over its location's limit is refused before it is read on, in the portal's words.
    error_page 413 @too_large;
    location @too_large {
      default_type text/plain;
      add_header X-Content-Type-Options nosniff always;
      return 413 "The form sent is too large.\n";
    }
  }
}
`;
}

function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** Writes nginx.conf and (all instances up) upstreams.conf into the runtime directory; returns the paths. */
export function writeNginxFiles(options) {
  const paths = nginxPaths(options.runtimeDir);
  const config = renderNginxConfig(options);
  mkdirSync(paths.temp, { recursive: true });
  writeAtomically(paths.upstreams, renderUpstreams(options.upstreams));
  writeAtomically(paths.config, config);
  return paths;
}

/** Replaces the upstream file in one step: nginx never reads half of it. */
export function writeUpstreams(runtimeDir, text) {
  writeAtomically(nginxPaths(runtimeDir).upstreams, text);
}

// CLI: node deploy/nginx.mjs --listen [host:]port --runtime-dir DIR --public-build-dir DIR host:port…
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      listen: { type: "string" },
      "runtime-dir": { type: "string" },
      "public-build-dir": { type: "string", default: "public/build" },
      daemon: { type: "boolean", default: false },
      logs: { type: "string", default: "files" },
      syslog: { type: "string", default: "unix:/dev/log" },
    },
  });
  if (!values.listen || !values["runtime-dir"] || positionals.length === 0) {
    console.error(
      "usage: node deploy/nginx.mjs --listen [host:]port --runtime-dir DIR [--public-build-dir public/build] [--daemon] [--logs files|syslog] [--syslog unix:/dev/log] host:port…",
    );
    process.exit(2);
  }
  const listen = /^(?:(.*):)?(\d+)$/.exec(values.listen);
  if (!listen) {
    console.error(`--listen is [host:]port, not ${values.listen}`);
    process.exit(2);
  }
  const paths = writeNginxFiles({
    listenHost: listen[1]?.replace(/^\[|\]$/g, "") ?? "",
    listenPort: Number(listen[2]),
    upstreams: positionals,
    publicBuildDir: values["public-build-dir"],
    runtimeDir: values["runtime-dir"],
    daemon: values.daemon,
    logTo: values.logs,
    syslog: values.syslog,
  });
  console.log(`wrote ${paths.config} and ${paths.upstreams}`);
  console.log(`start:  ${nginxBinary()} -p ${paths.dir} -c ${paths.config}`);
  console.log(`check:  node deploy/upstream-check.mjs --runtime-dir ${paths.dir}`);
}
