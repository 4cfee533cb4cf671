if (process.env.CC) require("node:module").enableCompileCache(process.env.CC);
require("./node_modules/@pulumi/pulumi");
const t0 = performance.now();
const r = require("pulumi-svc/provider-runtime");
const t1 = performance.now();
let t2;
(async () => {
  r.configure({ get: (k) => ({ "svc:baseUrl": "http://127.0.0.1:1/api_v3", "svc:partnerId": "1", "svc:adminSecret": "x" })[k] });
  const news = { description: "d" };
  for (let i = 0; i < 100; i++) await r.appToken.check({}, news);
  t2 = performance.now();
  for (let i = 0; i < 1000; i++) await r.appToken.check({}, news);
  const t3 = performance.now();
  for (let i = 0; i < 1000; i++) require("pulumi-svc/provider-runtime");
  const t4 = performance.now();
  console.log("load ms", (t1 - t0).toFixed(0), "check µs", ((t3 - t2)).toFixed(0), "require µs", (t4 - t3).toFixed(0));
})();
