/**
 * Pulumi's runtime mocked for the tests that construct resource classes: every registration is recorded (what the
 * engine would receive) and answered with the inputs as the state.
 */
import * as pulumi from "@pulumi/pulumi";

/** Sets the mocks (call in beforeAll); returns the list each registration is pushed to. */
export async function recordRegistrations(): Promise<pulumi.runtime.MockResourceArgs[]> {
  const registered: pulumi.runtime.MockResourceArgs[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    true,
  );
  return registered;
}

/** Resolves once the engine (the mocks) has registered the resource. */
export const registeredOnce = (resource: pulumi.CustomResource): Promise<void> => new Promise((resolve) => resource.urn.apply(() => resolve()));
