/**
 * The typed outputs of the generated classes (dynamic and native), from their definitions' state types: type
 * imports only, so a program loads nothing of the definitions.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceDefinition } from "../definitions/define";

/** The typed outputs of a resource, from its definition's state type. */
type OutputsOf<State> = { readonly [K in keyof State]-?: pulumi.Output<State[K]> };

/** The state a definition's create and read return (its second type argument). */
type DefinitionState<Definition> = Definition extends ResourceDefinition<infer _Inputs, infer State> ? State : never;

/** A resource's outputs as its class declares them: its definition's state, less the connection (credentials). */
export type DefinitionOutputs<Definition> = OutputsOf<Omit<DefinitionState<Definition>, "connection">>;
