/**
 * The emulator's parameter parser ignores names that reach Object.prototype (`__proto__`, `constructor`,
 * `prototype`), and it does so after the `__null` suffix is taken off: `__proto____null` names `__proto__` too,
 * and setting it to null would have cut the tree's prototype (or, nested, a subtree's).
 */
import { describe, expect, it } from "vitest";
import { fromEntries, fromJson, type ParamTree } from "../../emulator/api/params";

const UNSAFE = ["__proto__", "constructor", "prototype"];

describe("the unsafe-name guard after the __null suffix", () => {
  it("ignores an unsafe name spelt with __null, at the top and nested, in forms and JSON", () => {
    for (const name of UNSAFE) {
      for (const key of [`${name}__null`, `a[${name}__null]`, `a:b:${name}__null`]) {
        const tree = fromEntries({}, [
          ["a[keep]", "1"],
          [key, "x"],
        ]);
        expect(Object.getPrototypeOf(tree), key).toBe(Object.prototype);
        const a = tree.a as ParamTree;
        expect(Object.getPrototypeOf(a), key).toBe(Object.prototype);
        expect(Object.hasOwn(tree, name) || Object.hasOwn(a, name), key).toBe(false);
        expect(a.keep).toBe("1");
      }
      const json = fromJson({}, JSON.parse(`{"a": {"keep": "1", "${name}__null": "x"}}`));
      expect(Object.getPrototypeOf(json.a), name).toBe(Object.prototype);
      expect(Object.hasOwn(json.a as ParamTree, name)).toBe(false);
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("still sets an ordinary field to null with the suffix", () => {
    expect(fromEntries({}, [["template[description__null]", "1"]])).toEqual({ template: { description: null } });
  });
});
