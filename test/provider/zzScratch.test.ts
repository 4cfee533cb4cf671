import { it } from "vitest";
import { programFor } from "../../provider/cli/takeoverWriters";
import { appToken, emailNotificationTemplate } from "../../provider/definitions";
it("x", () => {
  try {
    programFor("yaml", [{ definition: emailNotificationTemplate, id: "2002", name: "m", inputs: { event: "entry.ready", name: "Editors", subject: "s", body: "b", fromEmail: "v@example.com", to: [{ "fn::readFile": "/etc/passwd", email: "a@example.com" }] } }] as never, { partnerId: 1, baseUrl: "https://x", importFile: "i.json" });
    console.log("NO THROW");
  } catch (e) { console.log("THROW", (e as Error).message); }
  void appToken;
});
