/**
 * `pulumi-svc/shared`: one plugin process for every svc provider of the Pulumi operations an Automation API program
 * runs, as `pulumi-svc shared -- <command>` gives a command (docs/plugin.md, "Many accounts: one shared process").
 * Start it, give the workspace its `PULUMI_DEBUG_PROVIDERS`, stop it when the operations are done.
 */
export { type SharedProvider, startSharedProvider } from "./sharedProvider";
