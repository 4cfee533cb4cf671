/**
 * The provider process with the sdk imported (ProviderProcessCore, providerProcessCore.ts, made with it): what the
 * dynamic provider runtime, the command line, the in-process plugin servers and the tests make. The plugin process's
 * main makes the core itself, with the sdk required at its first client.
 */
import { SvcClient } from "../../sdk";
import { createAgent } from "../../sdk/svcClient";
import { ProviderProcessCore, type ProviderProcessOptions } from "./providerProcessCore";

export type { ProviderProcessOptions };

export class ProviderProcess extends ProviderProcessCore {
  constructor(options: ProviderProcessOptions = {}) {
    super(() => ({ SvcClient, createAgent }), options);
  }
}
