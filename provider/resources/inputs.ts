/**
 * Resource Args derived from the input schemas (each definition's in provider/definitions/), so the program's types and check's rules cannot
 * drift apart: every field becomes a pulumi.Input (record values too), keeping the schema's optionality and docs.
 */
import type * as pulumi from "@pulumi/pulumi";

type InputOf<V> = V extends Record<string, infer E> ? Record<string, pulumi.Input<E>> : V;

export type PulumiInputs<T> = { [K in keyof T]: pulumi.Input<InputOf<T[K]>> };
