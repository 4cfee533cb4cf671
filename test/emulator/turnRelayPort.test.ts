/**
 * The TURN relay on a port chosen as free: node-turn cannot bind port 0 itself, so the relay picks a port and binds
 * it. Another process can take that port in between; the relay then picks another (a bounded number of times) and
 * says what each port gave when all were taken. A port the user set is never swapped for another.
 */
import { createSocket, type Socket } from "node:dgram";
import { afterEach, describe, expect, it } from "vitest";
import { TurnRelay } from "../../emulator/avatar/turnRelay";
import { PORT_ATTEMPTS } from "../../emulator/shared/portRetry";

const HOST = "127.0.0.1";
const held: Socket[] = [];
const relays: TurnRelay[] = [];

/** A UDP port bound by this test (exclusively, as node-turn binds), so the relay cannot have it. */
async function holdPort(): Promise<number> {
  const socket = createSocket("udp4");
  held.push(socket);
  await new Promise<void>((resolve) => socket.bind({ port: 0, address: HOST, exclusive: true }, resolve));
  return socket.address().port;
}

/** A port free when asked: the system's pick, released at once (what the relay's own chooser does). */
async function systemPort(): Promise<number> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, HOST, resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
  await Promise.all(held.splice(0).map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))));
});

describe("the TURN relay's port", () => {
  it("is chosen again when the port chosen as free was taken before the relay bound it", async () => {
    const taken = await holdPort();
    const choices: number[] = [];
    const relay = await TurnRelay.start({
      host: HOST,
      // The first choice is a port another socket holds; the second is the system's pick, released for the relay.
      choosePort: async () => {
        const port = choices.length === 0 ? taken : await systemPort();
        choices.push(port);
        return port;
      },
    });
    relays.push(relay);
    expect(choices).toHaveLength(2);
    expect(relay.port).toBe(choices[1]);
    expect(relay.port).not.toBe(taken);
    expect(relay.url).toBe(`turn:${HOST}:${relay.port}?transport=udp`);
  });

  it("fails after a bounded number of taken ports, naming each port and what it gave", async () => {
    const taken = await holdPort();
    let asked = 0;
    const failure = await TurnRelay.start({ host: HOST, choosePort: async () => (asked++, taken) }).then(
      (relay) => (relays.push(relay), undefined),
      (error: Error) => error,
    );
    expect(asked).toBe(PORT_ATTEMPTS);
    expect(failure?.message).toContain(`the TURN relay could not start: each of ${PORT_ATTEMPTS} ports chosen as free was taken before it bound it`);
    expect(failure?.message.split("\n").filter((line) => line.startsWith(`port ${taken}: `) && line.includes("EADDRINUSE"))).toHaveLength(PORT_ATTEMPTS);
  });

  it("is not swapped for another when the user set it and it is taken", async () => {
    const taken = await holdPort();
    let asked = 0;
    await expect(TurnRelay.start({ host: HOST, port: taken, choosePort: async () => (asked++, 0) })).rejects.toMatchObject({ code: "EADDRINUSE" });
    expect(asked).toBe(0);
  });
});
