const t0 = performance.now();
require("@pulumi/pulumi");
const t1 = performance.now();
const before = new Set(Object.keys(require.cache));
require("pulumi-svc");
const t2 = performance.now();
const added = Object.keys(require.cache).filter((k) => !before.has(k));
console.log("pulumi", Math.round(t1 - t0), "pulumi-svc", Math.round(t2 - t1), "modules", added.length);
const pk = {};
for (const k of added) { const m = k.match(/node_modules\/((@[^/]+\/)?[^/]+)/); const key = m ? m[1] : k.replace(/.*\/dist\//, "dist/"); pk[key] = (pk[key] || 0) + 1; }
console.log(pk);
