// npm ci refuses a lock file that lacks an entry for any optional dependency. The registry these
// machines reach serves only the linux-x64 builds of platform binaries (biome, rollup, deno), so npm
// writes no entry for the others. This adds them with their os/cpu/libc, which npm ci uses to skip
// them on this platform without downloading. Run after every `npm install`: `npm run lock`.
import { readFileSync, writeFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const pk = lock.packages;
const platform = (name) => {
  const m =
    /(?:(?:cli|rollup)-|^@deno\/)(android|darwin|linux|win32|freebsd|openbsd|openharmony)-([a-z0-9]+)(?:-(gnu|glibc|musl|gnueabihf|musleabihf|msvc|eabi))?$/.exec(
      name,
    );
  if (!m) return null;
  const [, os, cpu, abi] = m;
  const out = { os: [os], cpu: [cpu] };
  if (abi === 'musl' || abi === 'musleabihf') out.libc = ['musl'];
  else if (os === 'linux') out.libc = ['glibc'];
  return out;
};
let added = 0;
for (const entry of Object.values(pk)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (pk[key]) continue;
    const p = platform(dep);
    if (!p) continue;
    pk[key] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...p };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pk).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log('added', added);
