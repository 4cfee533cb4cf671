/**
 * An object type of a schema as a program passes it (`ConnectionArgs`, from the connection's schema): every field a
 * pulumi.Input (record values too), keeping the schema's optionality and docs. The resources' Args are generated
 * from their schemas instead (provider/codegen/argsTypes.ts).
 */
import type * as pulumi from "@pulumi/pulumi";

type InputOf<V> = V extends Record<string, infer E> ? Record<string, pulumi.Input<E>> : V;

export type PulumiInputs<T> = { [K in keyof T]: pulumi.Input<InputOf<T[K]>> };
