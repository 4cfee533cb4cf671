/** The mail sink's decoder on what mail libraries write: encoded words, quoted-printable, base64, multipart. */
import { describe, expect, it } from "vitest";
import { parseMessage } from "../../emulator/mail/mimeMessage";

const CRLF = "\r\n";

describe("parseMessage", () => {
  it("decodes folded headers with encoded words and a quoted-printable body", () => {
    const raw = [
      "From: =?UTF-8?Q?Caf=C3=A9?= <cafe@example.com>",
      "To: a@example.com,",
      " b@example.com",
      "Subject: =?UTF-8?B?UsOpc3Vtw6k=?= =?UTF-8?Q?_d=C3=A9j=C3=A0?=",
      "X-Priority: 1 (Highest)",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "Ligne tr=C3=A8s longue qui continue =",
      "ici.",
      "",
    ].join(CRLF);
    const m = parseMessage(Buffer.from(raw, "utf8"));
    expect(m).toMatchObject({ from: "Café <cafe@example.com>", to: "a@example.com, b@example.com", subject: "Résumé déjà", priority: "1 (Highest)" });
    expect(m.text).toBe("Ligne très longue qui continue ici.");
  });

  it("takes the first text and HTML parts of a multipart message, base64 included", () => {
    const html = Buffer.from("<p>Prêt</p>", "utf8").toString("base64");
    const raw = [
      "Subject: both",
      'Content-Type: multipart/alternative; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Ready",
      "--b1",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      html,
      "--b1--",
      "",
    ].join(CRLF);
    const m = parseMessage(raw);
    expect(m.text).toBe("Ready");
    expect(m.html).toBe("<p>Prêt</p>");
  });
});
