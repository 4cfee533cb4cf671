/**
 * `npm run record:grpc`: runs the program of test/plugin/wire/fixtures/program through the real engine and the
 * built plugin, with the engine's gRPC log, and writes the scrubbed recording the replay test reads
 * (test/plugin/wire/fixtures/engine-grpc.json). Needs the engine and dist/ (the npm script builds both first).
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../../..", import.meta.url)),
    include: ["test/plugin/wire/recordGrpc.record.ts"],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
