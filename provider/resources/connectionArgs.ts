import type { ConnectionInput } from "../core/connectionInput";
import type { PulumiInputs } from "./inputs";

/** An explicit connection for one resource (a second account), from the connection schema. Stored as a Pulumi secret. */
export type ConnectionArgs = PulumiInputs<ConnectionInput>;
