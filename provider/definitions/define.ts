/**
 * One definition per resource: its inputs (zod schema, how a change applies, secrecy, description), its outputs,
 * and its create/read/update/delete functions. Everything else is derived from it: the dynamic provider's and the
 * native plugin's handlers (providerFor), the dynamic resource classes' property lists and secret outputs, the
 * package schema of the plugin, and the field tables of the docs. So a field is written once.
 */
import { z } from "zod";
import { ConnectionInput } from "../core/connectionInput";
import { ACCOUNT_NAME, ACCOUNT_NAME_EXPECTATION } from "../core/namedAccounts";
import type { CheckFailure } from "../core/check";
import type { OperationContext } from "../core/operationContext";
import type { SchemaTypeName } from "./schemaTypes";

/** How a change of an input reaches the platform: updated in place, a replacement, or never a change (connection). */
export type Change = "inPlace" | "replace" | "none";

export interface InputField {
  schema: z.ZodType;
  change: Change;
  description: string;
  /** A Pulumi secret: wrapped by the dynamic resource, marked secret in the schema and in the plugin's answers. */
  secret?: boolean;
  /** A value a program would write (the schema's and the docs' example). */
  example: unknown;
  /**
   * The named type of the schema the field takes (provider/definitions/schemaTypes.ts): an enum, an object, or, for a
   * list, the object of its items. Generated SDKs type the field with it (a typo in an enum fails to compile).
   */
  typeName?: SchemaTypeName;
  /**
   * Optional in the schema, since `pulumi import` cannot read it back, but required of a program that creates the
   * resource: the generated dynamic class requires it, the native class's imported form may leave it out.
   */
  requiredOnCreate?: boolean;
  /** Set when the field is on its way out: the schema's deprecationMessage, and a warning when a program sets it. */
  deprecationMessage?: string;
}

/** The types the package schema can give an output (inputs take theirs from the zod schema). */
export type OutputType = "string" | "integer" | "boolean" | "object" | "array";

export interface OutputField {
  type: OutputType;
  /** A string output of an enum, an object output, or the items of an array output: the named type. */
  typeName?: SchemaTypeName;
  description: string;
  secret?: boolean;
  /** Absent in some states (a value the connection cannot read, a fact an import cannot know). */
  optional?: boolean;
  example: unknown;
}

/** The TypeScript type of an output of each table type. */
interface OutputValues {
  string: string;
  integer: number;
  boolean: boolean;
  object: object;
  array: unknown[];
}

/**
 * The state a definition's tables describe: every input (of its schema's type) and every output (of its table
 * type), each possibly absent (a value the connection cannot read, a fact an import cannot know).
 */
export type StateOf<I extends Record<string, InputField>, O extends Record<string, OutputField>> = {
  [K in keyof I | keyof O]: (K extends keyof O ? OutputValues[O[K]["type"]] : K extends keyof I ? z.output<I[K]["schema"]> : never) | undefined;
};

/**
 * The check of a definition's output mapper against its tables: returns the state as it is, and compiles only when
 * it has exactly the tables' keys (a missing one fails, an extra one must be `never`) with values of their types.
 */
export function stateChecker<I extends Record<string, InputField>, O extends Record<string, OutputField>>(_inputs: I, _outputs: O) {
  return <T extends StateOf<I, O>>(state: T & { [K in Exclude<keyof T, keyof I | keyof O>]: never }): T => state;
}

/** The input keys whose change applies as `change` says, as a type. */
export type KeysWithChange<I extends Record<string, InputField>, C extends Change> = { [K in keyof I]: C extends I[K]["change"] ? K : never }[keyof I] & string;

/** The input keys whose change applies as `change` says, in the table's order. */
export function keysWithChange<I extends Record<string, InputField>, C extends Change>(inputs: I, change: C): KeysWithChange<I, C>[] {
  return Object.keys(inputs).filter((key) => inputs[key]?.change === change) as KeysWithChange<I, C>[];
}

/** What create returns; read returns the same outputs, or undefined when the object is gone. */
export interface Created<State> {
  id: string;
  outs: State;
}

/** An object found in an account for `svc-takeover`: its id, a name for the program, and its inputs as read. */
export interface Existing {
  id: string;
  name: string;
  inputs: Record<string, unknown>;
}

/**
 * A change of a resource's state shape, applied to the states earlier releases wrote (as pulumi-go-provider's state
 * migrations): a stack made by an older release must preview clean with this one. Each migration recognises an old
 * state by a rule of its own (a field missing, a value of an old form) rather than by a version number, since the
 * states already written carry none. Migrations run in order on the state the engine holds, before diff, read,
 * update and delete see it; the engine stores the migrated shape with the next update or refresh.
 */
export interface StateMigration {
  /** What changed and since which release, for the reader of the definition. */
  description: string;
  /** True for a state written before this change. */
  appliesTo(state: Record<string, unknown>): boolean;
  /** The same state in the shape of this change (a new object; the argument is left as it is). */
  migrate(state: Record<string, unknown>): Record<string, unknown>;
}

/** A secret the example program reads from the stack's config (`config.requireSecret(key)` and its kin). */
export interface ConfigSecret {
  readonly configSecret: string;
}
export const configSecret = (key: string): ConfigSecret => ({ configSecret: key });

/**
 * The example program of a resource, as values: plugin/examples.ts writes it in TypeScript, Python, Go and YAML (the
 * schema's `{{% example %}}` blocks, type-checked, compiled and run by test/release).
 */
export interface ProgramExample {
  title: string;
  /** The resource's name in the program. */
  name: string;
  /** The variable that holds it (camelCase; Python takes it in snake_case). */
  variable: string;
  /** The inputs the program declares, in order. */
  inputs: Readonly<Record<string, unknown>>;
  /** What the program exports: [export name, output] ("id" for the resource's id). */
  exports: readonly [string, string];
}

/** What a platform id looks like: what `pulumi-svc takeover` checks the ids a listing sends against. */
export interface Grammar {
  pattern: RegExp;
  /** In UTF-16 code units (String.length). */
  max: number;
  /** Completes "... is not": what a matching value looks like. */
  expected: string;
}

/** How `pulumi-svc takeover` treats the resource's objects: the grammar of their ids and how it names them. */
export interface TakeoverTraits {
  id: Grammar;
  /** The start of a resource name when the object has no name of its own ("token" for token-0_ab12). */
  namePrefix: string;
  /** How the program's first line counts them ("app token": "3 app token(s)"). */
  noun: string;
  /** Whether a listed object is disabled (left out unless --include-disabled); its inputs as `list()` gives them. */
  isDisabled(inputs: Record<string, unknown>): boolean;
}

/**
 * What identifies an object a lost create made, for `pulumi-svc recover`: the inputs its create sends, each compared
 * with the object's field of the same name (an input the create did not send matches any value). Required of every
 * resource: recover never deletes an object it cannot match on these.
 */
export interface RecoveryTraits {
  /** The inputs a create sends to the platform, as the state's outputs name them. */
  creationFields: readonly string[];
  /** Of those, the fields the platform reports as "" when they were not sent. */
  emptyAsUnset: readonly string[];
}

/**
 * A resource's definition, typed by its checked inputs and its state. A list of definitions holds them as
 * `ResourceDefinition` (plain records): the methods' parameters are compared both ways (method syntax), so each
 * definition keeps its own types where it is written and where its handlers call it (runtime/handlers.ts).
 */
export interface ResourceDefinition<
  Inputs extends Record<string, unknown> = Record<string, unknown>,
  State extends Record<string, unknown> = Record<string, unknown>,
> {
  /** The type name: `svc:index:<type>` in the plugin, `pulumi-nodejs:dynamic/svc:<type>` for the dynamic resource. */
  type: string;
  /** The name of the dynamic runtime's generated export for this resource (`pulumi-svc/provider-runtime`'s `appToken`): stored shims call it; never change it. */
  runtimeExport: string;
  description: string;
  /** A TypeScript example for the schema's description and the docs. */
  example: string;
  /** The example program in every language the package has an SDK for. */
  program: ProgramExample;
  takeover: TakeoverTraits;
  recovery: RecoveryTraits;
  /** The platform object the id names. */
  idDescription: string;
  inputs: Record<string, InputField>;
  /** The outputs that are not inputs (the server's own fields). Every input is an output too. */
  outputs: Record<string, OutputField>;
  /** Rules across fields, after each field has been checked; `olds` are the previous inputs ({} on a create). */
  validate?(inputs: Record<string, unknown>, olds: Record<string, unknown>, failures: CheckFailure[]): void;
  /** Whether a replacement must delete the old object first (a unique name it keeps). */
  deleteBeforeReplace?(olds: Record<string, unknown>, news: Record<string, unknown>): boolean;
  /**
   * Each platform operation gets its context from the caller (handlers.ts): the client of the account the resource's
   * connection reaches, the operation's signal, the platform's clock and diagnostics.
   */
  create(ctx: OperationContext, inputs: Inputs): Promise<Created<State>>;
  /** The object as the server has it now, with the input-only fields carried from `state`; undefined when gone. */
  read(ctx: OperationContext, id: string, state: Partial<State>): Promise<State | undefined>;
  /** Called with the in-place fields that changed (at least one). */
  update(ctx: OperationContext, id: string, olds: State, news: Inputs, changed: string[]): Promise<State>;
  delete(ctx: OperationContext, id: string, state: State): Promise<void>;
  /**
   * The inputs that reproduce `outs` (for read: refresh shows drift, import gets a program's inputs). Default: each
   * input field taken from the outputs of the same name.
   */
  inputsOf?(outs: State): Record<string, unknown>;
  /** The account's objects of this kind that a program may take over (active ones, no system objects). */
  list?(ctx: OperationContext): Promise<Existing[]>;
  /** How states written by earlier releases become states of this one, oldest change first. */
  stateMigrations?: readonly StateMigration[];
}

/** Why `connection` is on its way out, and what replaces it (the schema's deprecationMessage, a warning when set). */
export const CONNECTION_DEPRECATION =
  '`connection` is deprecated: add the account to the provider\'s `accounts` (stack config `svc:accounts.<name>.*`, or `accounts` on an explicit provider) and set `account: "<name>"`; a resource moves from one to the other without replacement';

/** The connection input every resource takes: how to reach another account than the provider's (deprecated: `account`). */
export const CONNECTION_FIELD = {
  schema: ConnectionInput.optional(),
  change: "none",
  secret: true,
  description: "How to reach another account than the provider's (a secret); usually left out. Deprecated: use `account`.",
  example: { partnerId: 102 },
  deprecationMessage: CONNECTION_DEPRECATION,
} as const satisfies InputField;

/**
 * The account input every resource and function takes: the name of one of the provider's named accounts
 * (`accounts`), not a secret. Left out, the provider's own account. A change of name to another account replaces
 * the resource (the account guard of diff); to the same account (partner and base URL) it is an update that calls nothing.
 */
export const ACCOUNT_FIELD = {
  schema: z.string().regex(ACCOUNT_NAME, ACCOUNT_NAME_EXPECTATION).optional(),
  change: "none",
  description: "The name of the account to act in: one of the provider's named accounts (`accounts`). Left out, the provider's own account.",
  example: "reseller-eu",
} as const satisfies InputField;

/** The zod object of a definition's inputs table, as a type. */
type InputsObject<T extends Record<string, { schema: z.ZodType }>> = z.ZodObject<{ [K in keyof T]: T[K]["schema"] }>;
/** The checked inputs of a table (defaults filled in): what create and update receive. */
export type CheckedInputsOf<T extends Record<string, { schema: z.ZodType }>> = z.output<InputsObject<T>>;
/** What a program may pass to a table's inputs (before defaults): a resource's Args are derived from it. */
export type ProgramInputsOf<T extends Record<string, { schema: z.ZodType }>> = z.input<InputsObject<T>>;

/** The zod object of a definition's inputs (its types: what a program may pass, what check returns). */
export function inputsSchema<T extends Record<string, { schema: z.ZodType }>>(inputs: T): InputsObject<T> {
  return z.object(Object.fromEntries(Object.entries(inputs).map(([key, field]) => [key, field.schema]))) as never;
}

/** Declares a resource; the identity function, so that the definition's types are checked where it is written. */
export function defineResource<Inputs extends Record<string, unknown>, State extends Record<string, unknown>>(
  definition: ResourceDefinition<Inputs, State>,
): ResourceDefinition<Inputs, State> {
  return definition;
}

/** The lists every consumer derives from a definition. */
export function fieldsOf(definition: ResourceDefinition) {
  const inputKeys = Object.keys(definition.inputs);
  const secretInputs = inputKeys.filter((key) => definition.inputs[key]?.secret);
  const secretOutputs = Object.keys(definition.outputs).filter((key) => definition.outputs[key]?.secret);
  return {
    inputKeys,
    outputKeys: Object.keys(definition.outputs),
    inPlace: keysWithChange(definition.inputs, "inPlace"),
    replaces: keysWithChange(definition.inputs, "replace"),
    secretInputs,
    /** Every secret property of the state (secret inputs are outputs too). */
    secrets: [...secretInputs, ...secretOutputs],
    /** The deprecated inputs, with what to use instead. */
    deprecated: Object.fromEntries(
      inputKeys.flatMap((key) => (definition.inputs[key]?.deprecationMessage ? [[key, definition.inputs[key].deprecationMessage]] : [])),
    ) as Record<string, string>,
    shape: Object.fromEntries(inputKeys.map((key) => [key, definition.inputs[key]!.schema])) as Record<string, z.ZodType>,
  };
}

/** `state` in this release's shape: every migration whose rule recognises it, in order (the same object when none does). */
export function migrateState(definition: ResourceDefinition, state: Record<string, unknown>): Record<string, unknown> {
  let current = state;
  for (const migration of definition.stateMigrations ?? []) {
    if (migration.appliesTo(current)) current = migration.migrate(current);
  }
  return current;
}
