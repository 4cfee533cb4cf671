/**
 * The "no secret in plain text anywhere" check of the engine suites: every file a test's Pulumi run left on disk
 * (file backend, PULUMI_HOME, the copied program and its stack files) and every text the test captured from the engine
 * (stdout, stderr, error messages, outputs not marked secret) are searched for every secret value the test knows of:
 * the fixed test secrets below, values the test registered, secret config it set, and what its emulator holds (admin
 * secrets, app token values, template signing secrets). A value is also found in its JSON-escaped, URL-encoded and
 * base64 forms (at any byte offset, so inside a larger base64 blob too). A hit names the file (or captured text) and
 * the secret's label, never the value.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { RunningEmulator } from "../../emulator";

export interface KnownSecret {
  /** What the secret is, for the failure message (the value is never printed). */
  label: string;
  value: string;
}

/** Shorter values would match by chance (and none of the test secrets is that short). */
export const MIN_SECRET_LENGTH = 8;

/** The fixed secrets the shared harnesses use (test/support, test/languages): always searched for. */
export const FIXED_TEST_SECRETS = {
  e2eSignSecret: "e2e-signing-secret-0123456789abcdef",
  languagesSignSecret: "languages-signing-secret-0123456789",
  e2ePassphrase: "e2e-test-passphrase",
  languagesPassphrase: "languages-test",
  languagesPluginPassphrase: "languages-plugin-test",
} as const;

const FIXED_LABELS: Record<keyof typeof FIXED_TEST_SECRETS, string> = {
  e2eSignSecret: "the end-to-end signing secret (test/support/platformStack.ts)",
  languagesSignSecret: "the language tests' signing secret (test/languages/pluginProject.ts)",
  e2ePassphrase: "the end-to-end state passphrase",
  languagesPassphrase: "the language tests' state passphrase",
  languagesPluginPassphrase: "the language plugin tests' state passphrase",
};

export function fixedTestSecrets(): KnownSecret[] {
  return (Object.keys(FIXED_TEST_SECRETS) as (keyof typeof FIXED_TEST_SECRETS)[]).map((k) => ({ label: FIXED_LABELS[k], value: FIXED_TEST_SECRETS[k] }));
}

/** The forms a secret can take in a file or a log line; each with a name for the failure message. */
export function secretForms(value: string): { form: string; needle: string }[] {
  const forms = new Map<string, string>();
  const add = (form: string, needle: string) => {
    if (needle.length >= MIN_SECRET_LENGTH && ![...forms.values()].includes(needle)) forms.set(form, needle);
  };
  add("plain", value);
  const jsonEscaped = JSON.stringify(value).slice(1, -1);
  add("JSON-escaped", jsonEscaped);
  add("JSON-escaped twice", JSON.stringify(jsonEscaped).slice(1, -1));
  add("URL-encoded", encodeURIComponent(value));
  const bytes = Buffer.from(value, "utf8");
  for (const offset of [0, 1, 2]) {
    const core = base64Core(bytes, offset);
    add(`base64 (offset ${offset})`, core);
    add(`base64url (offset ${offset})`, core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return [...forms].map(([form, needle]) => ({ form, needle }));
}

/**
 * The base64 characters that depend only on the secret's bytes when it starts `offset` bytes into a 3-byte group:
 * the groups holding a byte from before or after the secret are dropped.
 */
function base64Core(bytes: Buffer, offset: number): string {
  const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
  const encoded = padded.toString("base64");
  const firstWhole = offset === 0 ? 0 : 4;
  const lastWhole = Math.floor(padded.length / 3) * 4;
  return encoded.slice(firstWhole, lastWhole);
}

export interface SecretHit {
  /** A file path (relative to its root) or the name of a captured text. */
  where: string;
  label: string;
  form: string;
}

export interface ScanInput {
  /** Folders (searched recursively, symlinks not followed) or single files. */
  roots: string[];
  /** Captured texts by name, e.g. `pulumi up stdout`. */
  texts?: { name: string; text: string }[];
  secrets: KnownSecret[];
}

export function findSecrets(input: ScanInput): SecretHit[] {
  const needles = input.secrets.flatMap((s) => secretForms(s.value).map((f) => ({ label: s.label, form: f.form, bytes: Buffer.from(f.needle, "utf8") })));
  const hits: SecretHit[] = [];
  const search = (where: string, content: Buffer) => {
    for (const n of needles) if (content.indexOf(n.bytes) !== -1) hits.push({ where, label: n.label, form: n.form });
  };
  for (const root of input.roots)
    for (const file of filesUnder(root)) search(relative(root, file) ? `${root}: ${relative(root, file)}` : file, readFileSync(file));
  for (const t of input.texts ?? []) search(t.name, Buffer.from(t.text, "utf8"));
  return hits;
}

/** Regular files under `root` (or `root` itself), not following symlinks (a linked node_modules is not the test's). */
function filesUnder(root: string): string[] {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(root);
  } catch {
    return [];
  }
  if (stat.isFile()) return [root];
  if (!stat.isDirectory()) return [];
  return readdirSync(root).flatMap((name) => filesUnder(join(root, name)));
}

/** Fails with every hit (file or text, and the secret's label and form), never quoting a value. */
export function assertNoSecrets(input: ScanInput): void {
  const hits = findSecrets(input);
  if (hits.length === 0) return;
  const lines = hits.map((h) => `  - ${h.label} (${h.form}) in ${h.where}`);
  throw new Error(`A secret appears in plain text where a test's Pulumi run left it:\n${lines.join("\n")}`);
}

/** Everything the emulator holds that must stay secret: every account's admin secret, token values, signing secrets. */
export function emulatorSecrets(emulator: RunningEmulator): KnownSecret[] {
  const db = emulator.ctx.db;
  const found: KnownSecret[] = [];
  for (const row of db.prepare("SELECT id, admin_secret FROM partners").all() as { id: number; admin_secret: string }[]) {
    found.push({ label: `the admin secret of emulator account ${row.id}`, value: row.admin_secret });
  }
  for (const row of db.prepare("SELECT kind, id, data FROM docs WHERE kind IN ('appToken', 'template')").all() as {
    kind: string;
    id: string;
    data: string;
  }[]) {
    const doc = JSON.parse(row.data) as { token?: unknown; signSecret?: unknown };
    if (row.kind === "appToken" && typeof doc.token === "string") found.push({ label: `the value of app token ${row.id}`, value: doc.token });
    if (row.kind === "template" && typeof doc.signSecret === "string") found.push({ label: `the signing secret of template ${row.id}`, value: doc.signSecret });
  }
  return found.filter((s) => s.value.length >= MIN_SECRET_LENGTH);
}

/**
 * What one test stack collects while it runs, checked at its close: folders to search, captured engine texts, known
 * secrets (registered values and sources read at check time, e.g. an emulator's accounts and tokens).
 */
export class SecretScan {
  private readonly roots: string[] = [];
  private readonly texts: { name: string; text: string }[] = [];
  private readonly secrets: KnownSecret[] = fixedTestSecrets();
  private readonly sources: (() => KnownSecret[])[] = [];

  addRoot(path: string): void {
    this.roots.push(path);
  }

  /** A secret the test saw (a token value, a config secret). */
  register(label: string, value: string): void {
    if (value.length < MIN_SECRET_LENGTH) throw new Error(`secret scan: "${label}" is shorter than ${MIN_SECRET_LENGTH} characters, too short to search for`);
    this.secrets.push({ label, value });
  }

  /** Secrets read when the scan runs (what exists by then). */
  addSource(source: () => KnownSecret[]): void {
    this.sources.push(source);
  }

  /** A text the engine printed or returned (stdout, stderr, an error message, plain outputs). */
  record(name: string, text: string | undefined): void {
    if (text) this.texts.push({ name, text });
  }

  knownSecrets(): KnownSecret[] {
    return [...this.secrets, ...this.sources.flatMap((source) => source())];
  }

  check(): void {
    assertNoSecrets({ roots: this.roots, texts: this.texts, secrets: this.knownSecrets() });
  }
}
