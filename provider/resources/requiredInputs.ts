/**
 * The dynamic classes' check of a program's required inputs, before anything is registered: the messages the
 * classes have always thrown (a generated SDK's), naming the input and the resource.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceFields } from "./resourceFields";

export function checkRequiredInputs(
  fields: ResourceFields,
  type: string,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: pulumi.CustomResourceOptions,
) {
  if (fields.required.length === 0) return;
  if (!args) throw new Error(`Missing required argument 'args' of ${type}`);
  // A read of an existing resource (opts.id, see get) takes its values from the server.
  if (opts.id !== undefined) return;
  for (const key of fields.required) {
    if (args[key] === undefined) throw new Error(`Missing required property '${key}' of ${type} ${name}`);
  }
}
