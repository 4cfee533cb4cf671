/**
 * Starting a server that cannot bind port 0 itself (node-turn, PostgreSQL) on a port chosen as free: another process
 * can take the port between the choice and the bind ("Address already in use"). Such a start is retried on a newly
 * chosen port, a bounded number of times; any other failure ends it at once. Every attempt's error is kept, so the
 * final message says what each port gave.
 */

/** Tries per start: a port taken between choosing and binding is rare, several in a row is a machine out of ports. */
export const PORT_ATTEMPTS = 5;

export interface ChosenPortStart<T> {
  /** What is started, for the final error ("PostgreSQL", "the TURN relay"). */
  what: string;
  /** A port free when asked (the system's pick, from binding port 0 and closing). */
  choosePort: () => Promise<number>;
  /** Starts the server on `port`; rejects when it cannot. */
  start: (port: number) => Promise<T>;
  /** Whether a start's error is the port being taken (then another port is tried). */
  isPortTaken: (error: unknown) => boolean;
  attempts?: number;
}

export async function startOnChosenPort<T>({ what, choosePort, start, isPortTaken, attempts = PORT_ATTEMPTS }: ChosenPortStart<T>): Promise<T> {
  const failures: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const port = await choosePort();
    try {
      return await start(port);
    } catch (error) {
      if (!isPortTaken(error)) throw error;
      failures.push(`port ${port}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`${what} could not start: each of ${attempts} ports chosen as free was taken before it bound it\n${failures.join("\n")}`);
}

/** A Node.js error that says the address is in use (`EADDRINUSE`). */
export function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "EADDRINUSE";
}
