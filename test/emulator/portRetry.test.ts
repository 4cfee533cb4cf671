/**
 * startOnChosenPort on its own: a port taken between choosing and binding is chosen again, a bounded number of times
 * with each port's error kept for the final message; any other failure ends the start at once, as it was.
 */
import { describe, expect, it } from "vitest";
import { isAddressInUse, PORT_ATTEMPTS, startOnChosenPort } from "../../emulator/shared/portRetry";

const inUse = (port: number) => Object.assign(new Error(`listen EADDRINUSE: address already in use 127.0.0.1:${port}`), { code: "EADDRINUSE" });

describe("startOnChosenPort", () => {
  it("starts on the next port chosen when the first was taken", async () => {
    const ports = [4101, 4102];
    const tried: number[] = [];
    const started = await startOnChosenPort({
      what: "the server",
      choosePort: async () => ports.shift()!,
      start: async (port) => {
        tried.push(port);
        if (port === 4101) throw inUse(port);
        return `listening on ${port}`;
      },
      isPortTaken: isAddressInUse,
    });
    expect(started).toBe("listening on 4102");
    expect(tried).toEqual([4101, 4102]);
  });

  it("any other failure ends the start at once, with its own error", async () => {
    let tries = 0;
    const broken = new Error("initdb: permission denied");
    await expect(
      startOnChosenPort({
        what: "the server",
        choosePort: async () => 4200 + tries,
        start: async () => {
          tries++;
          throw broken;
        },
        isPortTaken: isAddressInUse,
      }),
    ).rejects.toBe(broken);
    expect(tries).toBe(1);
  });

  it(`gives up after ${PORT_ATTEMPTS} taken ports, naming each and what it gave`, async () => {
    let next = 4300;
    const error = await startOnChosenPort({
      what: "the server",
      choosePort: async () => next++,
      start: async (port) => {
        throw inUse(port);
      },
      isPortTaken: isAddressInUse,
    }).catch((e: Error) => e);
    expect((error as Error).message.split("\n")).toEqual([
      `the server could not start: each of ${PORT_ATTEMPTS} ports chosen as free was taken before it bound it`,
      ...Array.from({ length: PORT_ATTEMPTS }, (_, i) => `port ${4300 + i}: listen EADDRINUSE: address already in use 127.0.0.1:${4300 + i}`),
    ]);
  });
});
