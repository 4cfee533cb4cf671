import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests drive the real Pulumi engine; they get their own generous timeouts per test.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two cores: the engine tests are heavy, so keep file-level parallelism modest.
    maxWorkers: 2,
    restoreMocks: true,
  },
});
