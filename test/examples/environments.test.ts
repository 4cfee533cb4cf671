/**
 * examples/environments: the committed dev stack file runs as is against the emulator (only the port differs:
 * tests listen on port 0), and the committed prod stack file authenticates with an app token, holds no admin
 * secret and no encrypted value.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { values } from "../support/platformStack";
import { exampleStack, examplesDir, type ExampleStack } from "./exampleStack";

const dir = join(examplesDir, "environments");
const stackFile = (name: string) => readFileSync(join(dir, `Pulumi.${name}.yaml`), "utf8");
/** `key: value` lines under `config:` (the files are flat, so a line scan is enough). */
const configOf = (text: string) =>
  Object.fromEntries([...text.matchAll(/^ {2}([\w-]+:[\w-]+):\s*(.*)$/gm)].map((m) => [m[1]!, m[2]!.replace(/^"(.*)"$/, "$1")]));

describe("examples/environments stack files", () => {
  it("dev targets the local emulator; prod the real account with an app token; neither commits a secret", () => {
    const dev = configOf(stackFile("dev"));
    const prod = configOf(stackFile("prod"));
    expect(dev).toMatchObject({ "svc:baseUrl": "http://127.0.0.1:4010/api_v3", "svc-environments:systemNameSuffix": "DEV" });
    expect(prod).toMatchObject({ "svc:appTokenId": expect.stringMatching(/^\d+_\w+$/), "svc-environments:systemNameSuffix": "PROD" });
    expect(prod["svc:baseUrl"]).toMatch(/^https:\/\//);
    expect(prod["svc-environments:webhookUrl"]).toMatch(/^https:\/\//);
    for (const file of [stackFile("dev"), stackFile("prod")]) {
      expect(file).not.toMatch(/secure:|adminSecret:|svc:appToken:/);
    }
    // Both stacks set every non-secret setting the program requires.
    for (const key of ["svc:baseUrl", "svc:partnerId", "svc-environments:webhookUrl", "svc-environments:systemNameSuffix"]) {
      expect(dev[key], `dev ${key}`).toBeTruthy();
      expect(prod[key], `prod ${key}`).toBeTruthy();
    }
  });
});

describe("examples/environments dev stack", () => {
  let p: ExampleStack;
  beforeAll(async () => {
    // The emulator as the README starts it (--partner-id 100 --admin-secret dev-only-admin-secret), on a free port.
    p = await exampleStack(
      "environments",
      (emulator) => ({
        "svc:baseUrl": { value: emulator.baseUrl },
        "svc:adminSecret": { value: "dev-only-admin-secret", secret: true },
        webhookSigningSecret: { value: "dev-signing-secret-0123456789", secret: true },
      }),
      { stackName: "dev", emulator: { partnerId: 100, adminSecret: "dev-only-admin-secret" } },
    );
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it("pulumi up with the committed Pulumi.dev.yaml creates the dev-suffixed resources", async () => {
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    const out = values(up.outputs);
    expect(out).toMatchObject({ stack: "dev", entryReadySystemName: "ENTRY_READY_DEV" });
    expect(await p.admin.templates.get(out.entryReadyTemplateId as string)).toMatchObject({
      partnerId: 100,
      status: 2,
      systemName: "ENTRY_READY_DEV",
      name: "Entry ready (dev)",
      url: "http://127.0.0.1:4020/hooks",
    });
    expect(await p.admin.appTokens.get(out.backendTokenId as string)).toMatchObject({ description: "backend service (dev)", partnerId: 100 });
  }, 120_000);
});
