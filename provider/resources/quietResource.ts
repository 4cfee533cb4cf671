/**
 * The base of every resource class of the package (dynamic and native): a CustomResource registered without stack
 * traces. While it registers a resource, @pulumi/pulumi tags each promise it makes (four per property) with a stack
 * trace for its leak report, which it prints only with PULUMI_DEBUG_PROMISE_LEAKS set. Under the language host's
 * source-map support (on by default) each trace maps every frame through source maps: about 0.1 ms each, most of the
 * program's time per resource (docs/bench.md). So no frames are captured during the synchronous registration,
 * unless that debugging is on. The resource's own source position is unaffected (the SDK lifts the limit itself to
 * find it), and an error thrown here gets its stack back.
 */
import * as pulumi from "@pulumi/pulumi";

export abstract class QuietResource extends pulumi.CustomResource {
  protected constructor(type: string, name: string, props: Record<string, unknown>, opts: pulumi.CustomResourceOptions) {
    const limit = Error.stackTraceLimit;
    if (!process.env.PULUMI_DEBUG_PROMISE_LEAKS) Error.stackTraceLimit = 0;
    try {
      super(type, name, props, opts);
    } catch (error) {
      Error.stackTraceLimit = limit;
      if (error instanceof Error) Error.captureStackTrace(error, new.target);
      throw error;
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
