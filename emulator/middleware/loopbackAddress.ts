/** Which host names are loopback; no dependency, so the CLI can ask without loading the emulator. */

/** 127.0.0.0/8, ::1 (also as ::ffff:127.x), localhost. 0.0.0.0 and :: listen on every interface: not loopback. */
export function isLoopbackAddress(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h);
}
