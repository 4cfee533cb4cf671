import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests drive the real Pulumi engine; they get their own generous timeouts per test.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two cores, three files at a time: the engine tests wait on the engine, the emulator's latency and the
    // platform's timeouts for much of their time (two workers left about a fifth of the CPU idle).
    maxWorkers: 3,
    restoreMocks: true,
  },
});
