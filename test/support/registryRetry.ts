/**
 * An npm command that fetches from the registry, tried again (3 times at most, a short pause between) when it fails
 * the way a flaky network or proxy makes it fail: a TLS chain cut mid-way (SELF_SIGNED_CERT_IN_CHAIN from an
 * intercepting proxy's hiccup), a reset, a timeout, a name lookup. Any other failure (a package that does not exist,
 * a bad tarball, a failing install script) fails at once, as it is.
 */
import { setTimeout as sleep } from "node:timers/promises";

const TRANSIENT = /SELF_SIGNED_CERT_IN_CHAIN|ECONNRESET|ETIMEDOUT|EAI_AGAIN|ECONNREFUSED|socket hang up|network timeout|ERR_SOCKET_TIMEOUT/;
const ATTEMPTS = 3;

export async function withRegistryRetry<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const text = `${(error as { stderr?: unknown }).stderr ?? ""} ${(error as Error).message ?? ""}`;
      if (attempt >= ATTEMPTS || !TRANSIENT.test(text)) throw error;
      await sleep(2_000 * attempt);
    }
  }
}
