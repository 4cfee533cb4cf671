/**
 * The secret scan is wired into the shared harnesses: a stack that leaves a known secret in plain text where its
 * Pulumi run wrote fails at close, naming the file and the secret, and quoting neither. Checked for the three
 * harnesses the engine suites use: platformStack (end-to-end, conformance), pluginProject and cliProject (languages).
 */
import { describe, expect, it } from "vitest";
import { cliProject } from "../languages/project";
import { pluginProject } from "../languages/pluginProject";
import { platformStack } from "../support/platformStack";

const failureOf = async (close: () => Promise<void> | void): Promise<Error> => {
  try {
    await close();
  } catch (error) {
    return error as Error;
  }
  throw new Error("close() passed: the scan did not see the planted secret");
};

describe("secret scan at every test stack's close", () => {
  it("platformStack: the emulator's admin secret set as plain config fails the close (the stack file names it)", async () => {
    const p = await platformStack({ stackName: "leaky" });
    const secret = p.emulator.adminSecret;
    // A mistake the scan exists for: a credential set without `secret: true` lands in Pulumi.<stack>.yaml as is.
    await p.stack.setConfig("leakedAdminSecret", { value: secret });
    const failure = await failureOf(() => p.close());
    expect(failure.message).toMatch(new RegExp(`the admin secret of emulator account ${p.emulator.partnerId} \\(plain\\) in .*program/Pulumi\\.leaky\\.yaml`));
    expect(`${failure.message}\n${failure.stack}`).not.toContain(secret);
  }, 120_000);

  it("platformStack: any token value the emulator holds is searched for, without the test registering it", async () => {
    const p = await platformStack({ stackName: "leaky-token" });
    const token = await p.client.appTokens.add({ description: "made by the test", hashType: "SHA256" } as never);
    await p.stack.setConfig("leakedToken", { value: token.token! });
    const failure = await failureOf(() => p.close());
    expect(failure.message).toContain(`the value of app token ${token.id} (plain) in`);
    expect(failure.message).not.toContain(token.token!);
  }, 120_000);

  it("pluginProject and cliProject: a secret set as plain config fails the close", async () => {
    const p = await pluginProject("yaml");
    await p.pulumi("config", "set", "leak", p.emulator.adminSecret);
    const pluginFailure = await failureOf(() => p.close());
    expect(pluginFailure.message).toMatch(/the admin secret of emulator account \d+ \(plain\) in .*program\/Pulumi\.test\.yaml/);
    expect(pluginFailure.message).not.toContain(p.emulator.adminSecret);

    const c = cliProject(`${__dirname}/../languages/fixtures/yaml`);
    const secret = "cli-project-planted-secret-42";
    c.scan.register("a planted test secret", secret);
    c.pulumi("config", "set", "leak", secret);
    const cliFailure = await failureOf(() => c.cleanup());
    expect(cliFailure.message).toMatch(/a planted test secret \(plain\) in .*Pulumi\.test\.yaml/);
    expect(cliFailure.message).not.toContain(secret);
  }, 180_000);
});
