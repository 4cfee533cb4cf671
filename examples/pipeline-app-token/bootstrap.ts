/**
 * Bootstrap, run once by a person who holds the admin secret (never by the pipeline):
 *
 *   export SVC_BASE_URL=... SVC_PARTNER_ID=... SVC_ADMIN_SECRET=...
 *   npx tsc -p examples/pipeline-app-token
 *   npx node examples/pipeline-app-token/dist/bootstrap.js | pulumi config set --secret svc:appToken
 *
 * stdout carries the token value and nothing else, so it can be piped straight into `pulumi config set --secret`
 * (or `gh secret set SVC_APP_TOKEN`); the id and the next steps go to stderr. It refuses to print the value to a
 * terminal, before creating anything, so the value does not end up in a scrollback or a CI log.
 */
import { SvcClient } from "pulumi-svc/sdk";
import { createPipelineToken } from "./createPipelineToken";

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`bootstrap: set ${name} (SVC_BASE_URL, SVC_PARTNER_ID and SVC_ADMIN_SECRET are needed once, here only)`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  if (process.stdout.isTTY) {
    console.error("bootstrap: stdout is a terminal; pipe it, e.g. `... | pulumi config set --secret svc:appToken`");
    process.exit(2);
  }
  const client = new SvcClient({
    baseUrl: required("SVC_BASE_URL"),
    partnerId: required("SVC_PARTNER_ID"),
    auth: { adminSecret: required("SVC_ADMIN_SECRET") },
  });
  try {
    const description = process.env.PIPELINE_TOKEN_DESCRIPTION;
    const { id, token, hashType } = await createPipelineToken(client, description ? { description } : {});
    process.stdout.write(token);
    console.error(
      [
        `bootstrap: created app token ${id} (ADMIN, disableentitlement, ${hashType}); its value went to stdout.`,
        "Next, in the stack the pipeline runs:",
        `  pulumi config set --plaintext svc:appTokenId ${id}`,
        "  pulumi config set svc:appToken --secret   (if you did not pipe the value there already)",
        "  pulumi config rm svc:adminSecret          (the pipeline must not hold it)",
      ].join("\n"),
    );
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  // sdk errors are redacted at the source; print only the message.
  console.error(`bootstrap failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
