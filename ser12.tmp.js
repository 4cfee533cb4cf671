const sc = require("./node_modules/@pulumi/pulumi/runtime/closure/serializeClosure");
const { shimFor } = require("./dist/provider/resources/shim");
(async () => {
  const p = shimFor("appToken");
  let t0 = performance.now();
  let sf = await sc.serializeFunction(() => p, { allowSecrets: true });
  console.log("ms", performance.now() - t0, "len", sf.text.length);
  t0 = performance.now();
  sf = await sc.serializeFunction(() => p, { allowSecrets: true });
  console.log("ms second", performance.now() - t0, "len", sf.text.length);
  console.log(sf.text);
})();
