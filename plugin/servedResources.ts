/**
 * The resources a plugin server serves, by type name (a key of the generated field table, one per definition), with
 * what its methods need of each: the runtime's handlers and the secret and output-only fields; and the checks every
 * method that names an object makes before any call (a served type, an id, checked inputs). Part of the resource
 * runtime the server loads at its first request about a resource (server.ts): never imported by the process's start.
 */
import type { ProviderProcessCore } from "../provider/core/providerProcessCore";
import { fieldsOf, type ResourceDefinition } from "../provider/definitions/define";
import { isResourceType, type ResourceType } from "../provider/generated/fieldTable";
import { type DefinitionHandlers, handlersFor } from "../provider/runtime/handlers";
import type { Props } from "./properties";
import { typeNameOf, typeToken } from "../provider/resources/typeToken";

export interface ServedResource {
  definition: ResourceDefinition;
  handlers: DefinitionHandlers<Props, Props>;
  secrets: string[];
  secretInputs: string[];
  /** The outputs that are not inputs: unknown in a preview of a create. */
  outputOnly: string[];
}

export class ServedResources {
  private readonly resources: { [T in ResourceType]?: ServedResource } = {};

  constructor(definitions: readonly ResourceDefinition[], session: ProviderProcessCore) {
    for (const definition of definitions) {
      if (!isResourceType(definition.type))
        throw new Error(`${definition.type} is not a resource of the package (its generated field table); the plugin serves those`);
      const fields = fieldsOf(definition);
      // Deletes of a replaced provider's resources go through the old provider process, which keeps the old account.
      this.resources[definition.type] = {
        definition,
        handlers: handlersFor(definition, session, "replace"),
        secrets: fields.secrets,
        secretInputs: fields.secretInputs,
        outputOnly: fields.outputKeys.filter((key) => !fields.inputKeys.includes(key)),
      };
    }
  }

  /** The resource a request is about: its type token (or its URN's), as a type name of the registry. */
  of(urn: string, type?: string): ServedResource {
    // URN: urn:pulumi:<stack>::<project>::<parent types$>type::<name>
    const token = type || (urn.split("::")[2] ?? "").split("$").pop() || "";
    const name = typeNameOf(token);
    const resource = name !== undefined && isResourceType(name) ? this.resources[name] : undefined;
    if (!resource) throw new Error(`unknown resource type ${token}; this plugin serves ${Object.keys(this.resources).map(typeToken).join(", ")}`);
    return resource;
  }

  /** `where`: the account by its host (a baseUrl may carry user:password@, which never goes into a message). */
  notFound(definition: ResourceDefinition, id: string, where: string): Error {
    return new Error(
      `${definition.type} ${JSON.stringify(id)} was not found in ${where} (or it is deleted); check the id (${definition.idDescription}) and the stack's svc:baseUrl and svc:partnerId; nothing was read`,
    );
  }

  /** The id of a request that names one object; an empty one is refused, naming the method, before any call. */
  requireId(resource: ServedResource, method: string, id: string): string {
    if (id === "")
      throw new Error(`${method} of ${typeToken(resource.definition.type)}: id is required (${resource.definition.idDescription}); nothing was called`);
    return id;
  }

  /**
   * The inputs of a Create or Update, checked as Check checks them: the engine only sends checked inputs, but a
   * request that is not (a peer's, a replay's) is refused naming the fields before any call to the platform.
   */
  async checkedInputs(resource: ServedResource, method: string, olds: Props, news: Props): Promise<Props> {
    const { inputs, failures } = await resource.handlers.check(olds, news);
    if (failures.length === 0) return inputs;
    throw new Error(`${method} of ${typeToken(resource.definition.type)} refused before any call: ${failures.map((f) => f.reason).join("; ")}`);
  }
}
