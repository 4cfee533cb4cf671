#!/usr/bin/env node
/**
 * `npm run pulumi -- <args>`: the built Pulumi CLI with this repo's local set-up (see engineEnv.ts), for running
 * the stacks by hand, e.g. `npm run pulumi -- preview --stack dev`.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { mkdirSync } from "node:fs";
import { engineBinDir, engineEnv, localStateDir, repoRoot } from "./engineEnv";

mkdirSync(localStateDir, { recursive: true });

const result = spawnSync(join(engineBinDir(), "pulumi"), process.argv.slice(2), {
  cwd: process.env.INIT_CWD ?? repoRoot,
  stdio: "inherit",
  env: { ...process.env, ...engineEnv() },
});
process.exit(result.status ?? 1);
