/** The fault matrix (test/support/faultMatrix.ts) for faults that strike before the platform acts: 503, 429, a dropped connection. */
import { BEFORE_ACTING, faultMatrix } from "../support/faultMatrix";

faultMatrix(BEFORE_ACTING, 1100);
