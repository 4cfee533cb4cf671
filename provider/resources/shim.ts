/**
 * The dynamic provider objects handed to the engine. The engine serializes them into the state as source text with
 * everything they capture, so they capture nothing but a kind name: each method loads the installed package's
 * runtime by package name and calls into it. The text is therefore the same from release to release (no diff on a
 * package upgrade), holds no client or secret, and always runs the code of the package that is installed.
 */
import type * as pulumi from "@pulumi/pulumi";

type Kind = "appToken" | "httpNotificationTemplate";

// One object per kind: the SDK serializes a provider object once and reuses the text for every resource handed the
// same object, so 50 AppTokens cost one serialization, not 50.
const shims = new Map<Kind, pulumi.dynamic.ResourceProvider>();

export function shimFor(kind: Kind): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(kind);
  if (!shim) shims.set(kind, (shim = makeShim(kind)));
  return shim;
}

function makeShim(kind: Kind): pulumi.dynamic.ResourceProvider {
  const runtime = () => require("pulumi-svc/provider-runtime");
  return {
    async configure(req) {
      runtime().configure(req.config);
    },
    async check(olds, news) {
      return runtime()[kind].check(olds, news);
    },
    async diff(id, olds, news) {
      return runtime()[kind].diff(id, olds, news);
    },
    async create(inputs) {
      return runtime()[kind].create(inputs);
    },
    async read(id, props) {
      return runtime()[kind].read(id, props);
    },
    async update(id, olds, news) {
      return runtime()[kind].update(id, olds, news);
    },
    async delete(id, props) {
      return runtime()[kind].delete(id, props);
    },
  };
}
