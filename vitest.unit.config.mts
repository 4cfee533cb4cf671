/**
 * `npm run test:unit`: the tests that need nothing but the sources: no Pulumi engine, no browser, no database, no
 * build output (dist/), no child processes. The emulator they use runs in the test's own process. The full suite is
 * `npm test`.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Threads start faster than forks (about 18 against 24 s here); these tests change no process-wide state.
    pool: "threads",
    maxWorkers: 2,
    restoreMocks: true,
    include: [
      "test/architecture/**/*.test.ts",
      "test/contract/**/*.test.ts",
      "test/sdk/**/*.test.ts",
      "test/provider/**/*.test.ts",
      "test/emulator/**/*.test.ts",
      "test/avatar/**/*.test.ts",
      "test/browser/**/*.test.ts",
      "test/docs/**/*.test.ts",
      "test/fuzz/**/*.test.ts",
      "test/support/**/*.test.ts",
      // The native plugin in this process: its property rules and answers, and its gRPC service on loopback (test/plugin/wire).
      "test/plugin/properties.test.ts",
      "test/plugin/answers.test.ts",
      "test/plugin/wire/**/*.test.ts",
      "test/diagnostics/engineLog.test.ts",
      "test/upgrade/stateMigration.test.ts",
      "test/functions/**/*.test.ts",
      // The recover command's decisions and the provider's ends of interrupted creates (the kill tests are e2e).
      "test/recover/**/*.unit.test.ts",
      "test/policy/rules.test.ts",
      // The per-account isolation tests that run in process (the engine ones are *.engine.test.ts).
      "test/scale/accountIsolation.test.ts",
      "test/scale/partnerTraffic.test.ts",
      "test/scale/listingAtSize.test.ts",
    ],
    exclude: [
      // Read the built package (dist/) or start child processes.
      "test/sdk/exports.test.ts",
      "test/sdk/undiciParts.test.ts",
      "test/sdk/webhookReplayProcesses.test.ts",
      // A PostgreSQL server (and, for the receivers, child processes and dist/).
      "test/sdk/postgresReplayStore.test.ts",
      "test/sdk/receiversAtScale.test.ts",
      "test/provider/runtimeBundle.test.ts",
      "test/provider/runtimeEntry.test.ts",
      "test/provider/shim.test.ts",
      "test/emulator/cli.test.ts",
      "test/emulator/persistence.test.ts",
      // Through the engine (a TypeScript program on the plugin).
      "test/functions/nativeEngine.test.ts",
      // The TypeScript compiler on a program (seconds of CPU).
      "test/functions/typecheck.test.ts",
      // A copy of the tree generated, type-checked and linted by child processes (tens of seconds of CPU).
      "test/provider/addResource.test.ts",
      // Chromium.
      "test/browser/browserBundle.test.ts",
      // A real WebRTC peer streaming media (the emulator's optional media stack).
      "test/avatar/whepMedia.test.ts",
    ],
  },
});
