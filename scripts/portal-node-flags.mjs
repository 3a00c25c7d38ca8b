// The V8 heap limits every portal process runs with (docs/decisions/128). Without them V8 lets the
// heap grow into garbage before it collects: 340 MiB resident warmed up and 450 MiB under
// `npm run load`, of which a heap snapshot holds about 50 MiB alive. With them: about 190 MiB under
// the same load, at no measurable cost in requests per second. `npm run start:portal` (package.json)
// writes the same flags; a test keeps the two equal.
export const PORTAL_NODE_FLAGS = ["--max-old-space-size=128", "--max-semi-space-size=16"];

// glibc's allocator keeps an arena per thread that has allocated (zlib's compression and the
// libuv pool's threads included) and returns little of them: two arenas held the same warmed-up
// portal at 204 MiB resident instead of 219 (docs/decisions/176). Set before the process starts.
export const PORTAL_PROCESS_ENV = { MALLOC_ARENA_MAX: "2" };
