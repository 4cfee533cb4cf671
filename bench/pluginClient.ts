/**
 * What the benches that start a plugin process themselves share (pluginProcess.ts, readPath.ts): one unary call of
 * its gRPC client, the Configure of an emulator account, and a process's CPU from /proc.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import type * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { EmulatorTarget } from "./emulatorProcess";

const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** One unary call of the stubs' client, by method name, as a promise. */
export function unary<Req, Res>(client: provrpc.ResourceProviderClient, method: string, request: Req): Promise<Res> {
  const call = (client as unknown as Record<string, (r: Req, cb: (e: grpc.ServiceError | null, v: Res) => void) => void>)[method]!.bind(client);
  return new Promise((resolve, reject) => call(request, (error, value) => (error ? reject(error) : resolve(value))));
}

/** Configure, on the emulator's account, as the engine sends it (secrets and resources accepted). */
export function configurePlugin(client: provrpc.ResourceProviderClient, target: EmulatorTarget): Promise<provproto.ConfigureResponse> {
  const args = { baseUrl: target.baseUrl, partnerId: String(target.partnerId), adminSecret: target.adminSecret };
  return unary(
    client,
    "configure",
    new provproto.ConfigureRequest().setArgs(structproto.Struct.fromJavaScript(args)).setAcceptsecrets(true).setAcceptresources(true),
  );
}

/** The CPU a process has used, user and system, in ms (clock-tick resolution). */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
