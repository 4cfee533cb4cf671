/**
 * The dynamic provider the engine stores with every resource (its `__provider` input) and runs in its dynamic
 * provider process: `require-from-string(text).handler()` once per process and per distinct text, then the CRUD
 * methods (@pulumi/pulumi cmd/dynamic-provider). Ours is a few lines of fixed source text that capture nothing but the
 * name of a runtime export (its definition's `runtimeExport`): the handler loads the installed package's runtime by
 * package name, once, and calls into it. So the text is the same from release to release (no diff on a package
 * upgrade), holds no client or secret, and always runs the code of the package that is installed. The dynamic
 * classes register it (dynamicResource.ts).
 *
 * The text is written here rather than produced by `pulumi.dynamic.Resource`'s closure serializer: that made 2.7 kB
 * per resource (stored twice in the state, sent with every check, diff and create) and loaded the TypeScript compiler
 * into the program to produce it. See docs/bench.md.
 */

/**
 * The provider text that calls the runtime export `runtimeExport`. Shims stored by earlier releases (serialized
 * closures) require the same module and call the same names, `configure` and
 * `<runtimeExport>.check/diff/create/read/update/delete`: that is the runtime's contract.
 */
export function shimText(runtimeExport: string): string {
  return `exports.handler = () => {
  const runtime = () => require("pulumi-svc/provider-runtime");
  const { configure, ${runtimeExport}: provider } = runtime();
  return {
    configure: async (req) => configure(req.config),
    check: (olds, news) => provider.check(olds, news),
    diff: (id, olds, news) => provider.diff(id, olds, news),
    create: (inputs) => provider.create(inputs),
    read: (id, props) => provider.read(id, props),
    update: (id, olds, news) => provider.update(id, olds, news),
    delete: (id, props) => provider.delete(id, props),
  };
};
`;
}
