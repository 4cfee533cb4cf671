/**
 * A server the tests of a file share, started once before them. A beforeAll that throws makes vitest report the
 * file's tests as skipped; a test that needs a server must fail instead, with the reason the server did not start.
 * So the start's error is kept and each test fails with it (tests never skip for a missing tool or a server that
 * could not start).
 */
import { beforeAll, beforeEach } from "vitest";

/** How long a start may take by default: scripts/ensure-postgres.sh may install PostgreSQL first (apt-get). */
const START_TIMEOUT_MS = 900_000;

export function startServerBeforeAll(start: () => Promise<void>, timeoutMs = START_TIMEOUT_MS): void {
  let failure: unknown;
  beforeAll(async () => {
    // The start's own deadline, inside the hook's: a hook that times out would skip the tests again.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the server did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    try {
      await Promise.race([start(), deadline]);
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(timer);
    }
  }, timeoutMs + 10_000);
  beforeEach(() => {
    if (failure !== undefined) throw failure;
  });
}
