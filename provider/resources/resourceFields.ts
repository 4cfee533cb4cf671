/**
 * A resource's row of the generated field table (provider/generated/fieldTable.ts, written by
 * provider/codegen/fieldTable.ts): what its classes need of its definition at run time, as plain data. Each class
 * passes its own.
 */
export interface ResourceFields {
  /** The dynamic runtime's export for the resource, which its stored shim calls. */
  readonly runtimeExport: string;
  readonly inputs: readonly string[];
  /** The outputs that are not inputs. */
  readonly outputs: readonly string[];
  /** Every secret property (inputs and outputs). */
  readonly secrets: readonly string[];
  /** The deprecated inputs and what to use instead (the native classes warn when a program sets one). */
  readonly deprecated: Readonly<Record<string, string>>;
  /** The inputs a program must give to create one (the dynamic classes check them; the plugin's check does too). */
  readonly required: readonly string[];
}
