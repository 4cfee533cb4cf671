/**
 * The properties a resource class registers, from its row of the field table: every input (secret ones wrapped as
 * Pulumi secrets), and every output named as undefined so that each is a property of the resource. `connection`, an
 * input only, is left out when not given: each property costs the SDK four promises.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceFields } from "./resourceFields";

export function resourceProps(fields: ResourceFields, args: Record<string, unknown>): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const key of fields.inputs) {
    const value = args[key];
    if (value === undefined && key === "connection") continue;
    props[key] = value !== undefined && fields.secrets.includes(key) ? pulumi.secret(value) : value;
  }
  for (const key of fields.outputs) props[key] = undefined;
  return props;
}
