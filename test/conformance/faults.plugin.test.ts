/**
 * The fault matrix (test/support/faultMatrix.ts) on the native plugin: 40% of requests fail, before the platform
 * acts and after it acted, through create, update, replacement, refresh and destroy; each converges in one run with
 * no orphan and no duplicate. The dynamic providers run the same matrix in test/e2e/faultMatrix.*.test.ts.
 */
import { AFTER_ACTING, BEFORE_ACTING, faultMatrix } from "../support/faultMatrix";

faultMatrix(AFTER_ACTING, 2400, "plugin");
faultMatrix(BEFORE_ACTING, 2700, "plugin");
