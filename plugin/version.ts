/**
 * The plugin's version: the package's, written into the bundle by scripts/build-plugin.mjs (the engine matches it
 * against the version a program or an SDK asks for). Unbundled (unit tests) it is a development version.
 */
declare const __SVC_PLUGIN_VERSION__: string | undefined;

export const PLUGIN_VERSION: string = typeof __SVC_PLUGIN_VERSION__ === "string" ? __SVC_PLUGIN_VERSION__ : "0.0.0-dev";
