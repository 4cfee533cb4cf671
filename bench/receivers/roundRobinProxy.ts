/**
 * The one URL in front of several receivers: a small round-robin HTTP proxy on loopback, as a load balancer without
 * health checks behaves. Each request goes to the next upstream; an upstream that refuses the connection or drops
 * it mid-request (a killed receiver) makes the answer a 502, which the platform's deliverer retries. It counts the
 * requests in flight per upstream, so a test knows how many a kill interrupted.
 */
import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  url: string;
  /** Points slot `index` at another port (a restarted receiver). */
  setUpstream(index: number, port: number): void;
  /** Requests sent to slot `index` and not yet answered by it. */
  inFlight(index: number): number;
  /** 502s answered because an upstream failed. */
  readonly badGateways: number;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(ports: number[]): Promise<RoundRobinProxy> {
  const upstreams = [...ports];
  const inFlight = upstreams.map(() => 0);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  let badGateways = 0;
  const server: Server = createServer((req, res) => {
    const index = next;
    next = (next + 1) % upstreams.length;
    inFlight[index]!++;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      inFlight[index]!--;
    };
    const upstream = request({ host: "127.0.0.1", port: upstreams[index], method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.once("close", done);
      answer.once("error", () => {
        done();
        res.destroy();
      });
    });
    upstream.once("error", () => {
      done();
      if (res.headersSent) {
        res.destroy();
        return;
      }
      badGateways++;
      res.writeHead(502, { "content-type": "application/json" }).end('{"error":"bad gateway"}');
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    setUpstream: (index, port) => void (upstreams[index] = port),
    inFlight: (index) => inFlight[index] ?? 0,
    get badGateways() {
      return badGateways;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
