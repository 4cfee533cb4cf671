/**
 * Loaded into every node process the engine starts (`NODE_OPTIONS=--require <dist>/bench/probe/processProbe.js`);
 * acts only when PULUMI_SVC_PROBE_DIR is set, and only in the two processes the bench looks at: the dynamic provider
 * host (`@pulumi/pulumi/cmd/dynamic-provider`, role "provider") and the language host running the program
 * (`@pulumi/pulumi/cmd/run`, role "program").
 * - It records the process's peak resident memory and CPU time in `<dir>/<role>-<pid>.json`, at exit and at SIGINT or
 *   SIGTERM (the engine ends its plugins with SIGINT, then SIGKILL), and every second in case neither comes.
 * - With PULUMI_SVC_PROBE_CPU_PROFILE=1 it also profiles the process's CPU with the inspector and writes
 *   `<dir>/<role>-<pid>.cpuprofile` (Chrome DevTools opens it; bench/profile.ts summarizes it).
 * It never writes to stdout (the engine reads the provider host's port from it) and changes nothing else.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.PULUMI_SVC_PROBE_DIR;
// The native plugin (pulumi-resource-svc.js) is the provider too.
const role = process.argv.some((arg) => /[\\/]cmd[\\/]dynamic-provider|pulumi-resource-svc\.js$/.test(arg))
  ? "provider"
  : process.argv.some((arg) => /[\\/]cmd[\\/]run([\\/]|$)/.test(arg))
    ? "program"
    : undefined;

if (dir && role) {
  const base = join(dir, `${role}-${process.pid}`);
  const record = (): void => {
    // maxRSS (kilobytes) is the peak of the process so far, not a sample; CPU times are in microseconds.
    const usage = process.resourceUsage();
    writeFileSync(
      `${base}.json`,
      JSON.stringify({ role, pid: process.pid, maxRssBytes: usage.maxRSS * 1024, cpuMicros: usage.userCPUTime + usage.systemCPUTime }),
    );
  };
  record();
  setInterval(record, 1000).unref();
  process.on("exit", record);

  let stopProfile = (): void => undefined;
  if (process.env.PULUMI_SVC_PROBE_CPU_PROFILE === "1") {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Session } = require("node:inspector") as typeof import("node:inspector");
    const session = new Session();
    session.connect();
    session.post("Profiler.enable");
    session.post("Profiler.setSamplingInterval", { interval: 500 });
    session.post("Profiler.start");
    let stopped = false;
    // The in-process inspector answers synchronously, so this also works inside an exit hook.
    stopProfile = () => {
      if (stopped) return;
      stopped = true;
      session.post("Profiler.stop", (error, result) => {
        if (!error) writeFileSync(`${base}.cpuprofile`, JSON.stringify(result.profile));
      });
    };
    process.on("exit", stopProfile);
  }

  // The default action of SIGINT/SIGTERM ends the process without exit hooks: record first, then end as before.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stopProfile();
      record();
      process.kill(process.pid, signal);
    });
  }
}
