import type * as pulumi from "@pulumi/pulumi";
import type { HashType } from "../../sdk/contract/platform";

/** An explicit connection for one resource (a second account). Everything here is stored as a Pulumi secret. */
export interface ConnectionArgs {
  baseUrl?: pulumi.Input<string>;
  partnerId?: pulumi.Input<number>;
  adminSecret?: pulumi.Input<string>;
  appTokenId?: pulumi.Input<string>;
  appToken?: pulumi.Input<string>;
  appTokenHashType?: pulumi.Input<HashType>;
  ks?: pulumi.Input<string>;
  requestTimeoutMs?: pulumi.Input<number>;
}
