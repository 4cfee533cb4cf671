// npm's EBADENGINE warnings, sorted for scripts/setup.mjs (plain ESM, no dependencies: it runs before any exist).
// `npm ci` runs on the machine's `node` (often an older one on a fresh clone) and warns for every package that asks
// for a newer Node, the project itself included; but every script of the project runs on its own Node 22 (the `node`
// devDependency). A warning whose range that Node satisfies says nothing to act on, so the set-up says it once, in
// plain words; one it does not satisfy (or that cannot be read) is a real mismatch and is kept as npm wrote it. The
// package's `engines` is left as it is, so a user's npm still warns when their Node is too old for it.

const BLOCK = /^npm warn EBADENGINE Unsupported engine \{\n((?:npm warn EBADENGINE {3}.*\n)*?)npm warn EBADENGINE \}\n?/gim;

/** Whether `version` (v22.23.3) is in `range`, for the ranges packages write here (>=22, >=22.13, ^22.1.0); undefined when unreadable. */
export function satisfies(version, range) {
  const have = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version)?.slice(1).map(Number);
  const want = /^\s*(>=|\^)\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range);
  if (!have || !want) return undefined;
  const [, op, ...parts] = want;
  const floor = parts.map((p) => Number(p ?? 0));
  const compare = have[0] - floor[0] || have[1] - floor[1] || have[2] - floor[2];
  return compare >= 0 && (op === ">=" || have[0] === floor[0]);
}

/**
 * npm's stderr split: the EBADENGINE blocks whose `node` range `projectNode` satisfies (by package), and the rest of
 * the text as npm wrote it.
 */
export function splitEngineWarnings(stderr, projectNode) {
  const expected = new Set();
  const kept = stderr.replace(BLOCK, (block, body) => {
    const pkg = /package: '([^']+)'/.exec(body)?.[1];
    const range = /required: \{[^}]*node: '([^']+)'/.exec(body)?.[1];
    if (!pkg || !range || satisfies(projectNode, range) !== true) return block;
    expected.add(pkg);
    return "";
  });
  return { kept, expected: [...expected] };
}
