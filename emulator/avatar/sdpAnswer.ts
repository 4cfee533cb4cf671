/**
 * A structurally valid SDP answer for a WHEP viewer's offer, so a real browser's setRemoteDescription accepts
 * it (the emulator streams no media: ICE never completes, which the client reports as a connection state).
 * Each offered m-section is answered with one codec the emulator "sends" (opus for audio, VP8 or the first
 * video codec), the inverse direction, ice-lite credentials, a DTLS fingerprint and setup:passive.
 */
import { randomBytes } from "node:crypto";

interface MediaSection {
  kind: string;
  port: string;
  proto: string;
  formats: string[];
  attributes: string[];
}

export function isSdpOffer(text: string): boolean {
  return text.startsWith("v=0") && /\r?\nm=/.test(text);
}

export function buildSdpAnswer(offer: string): string {
  const sections = parseSections(offer);
  const ufrag = randomBytes(6).toString("hex");
  const pwd = randomBytes(16).toString("hex");
  const fingerprint = [...randomBytes(32)].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
  const mids = sections.map((s, i) => attribute(s, "mid") ?? String(i));
  const lines = [
    "v=0",
    `o=- ${BigInt(`0x${randomBytes(6).toString("hex")}`)} 2 IN IP4 127.0.0.1`,
    "s=-",
    "t=0 0",
    `a=group:BUNDLE ${mids.join(" ")}`,
    "a=ice-lite",
    "a=msid-semantic: WMS *",
  ];
  sections.forEach((section, i) => {
    const common = [
      "c=IN IP4 0.0.0.0",
      `a=ice-ufrag:${ufrag}`,
      `a=ice-pwd:${pwd}`,
      `a=fingerprint:sha-256 ${fingerprint}`,
      "a=setup:passive",
      `a=mid:${mids[i]}`,
    ];
    if (section.kind === "application") {
      lines.push(`m=application 9 ${section.proto} ${section.formats.join(" ")}`, ...common, "a=sctp-port:5000");
      return;
    }
    const pt = chooseFormat(section);
    if (section.port === "0" || pt === undefined) {
      lines.push(`m=${section.kind} 0 ${section.proto} ${section.formats[0] ?? "0"}`, "c=IN IP4 0.0.0.0", `a=mid:${mids[i]}`, "a=inactive");
      return;
    }
    lines.push(`m=${section.kind} 9 ${section.proto} ${pt}`, ...common, "a=rtcp:9 IN IP4 0.0.0.0");
    lines.push(`a=${answerDirection(section)}`, "a=rtcp-mux");
    if (section.kind === "video") lines.push("a=rtcp-rsize");
    for (const attr of section.attributes) {
      if (attr.startsWith(`rtpmap:${pt} `) || attr.startsWith(`fmtp:${pt} `) || attr.startsWith(`rtcp-fb:${pt} `)) {
        lines.push(`a=${attr}`);
      }
    }
  });
  return `${lines.join("\r\n")}\r\n`;
}

function parseSections(sdp: string): MediaSection[] {
  const sections: MediaSection[] = [];
  for (const line of sdp.split(/\r?\n/)) {
    if (line.startsWith("m=")) {
      const [kind = "", port = "0", proto = "", ...formats] = line.slice(2).trim().split(/\s+/);
      sections.push({ kind, port, proto, formats, attributes: [] });
    } else if (line.startsWith("a=")) {
      sections.at(-1)?.attributes.push(line.slice(2));
    }
  }
  return sections;
}

function attribute(section: MediaSection, name: string): string | undefined {
  const found = section.attributes.find((attr) => attr.startsWith(`${name}:`));
  return found?.slice(name.length + 1);
}

function chooseFormat(section: MediaSection): string | undefined {
  const codecOf = (pt: string) => attribute({ ...section, attributes: section.attributes.filter((a) => a.startsWith(`rtpmap:${pt} `)) }, "rtpmap");
  const preferred = section.kind === "audio" ? /^\S+ opus\//i : /^\S+ VP8\//i;
  return (
    section.formats.find((pt) => preferred.test(codecOf(pt) ?? "")) ??
    section.formats.find((pt) => !/rtx|red|ulpfec|flexfec/i.test(codecOf(pt) ?? ""))
  );
}

function answerDirection(section: MediaSection): string {
  if (section.attributes.includes("recvonly") || section.attributes.includes("sendrecv")) return "sendonly";
  if (section.attributes.includes("sendonly")) return "recvonly";
  return "inactive";
}
