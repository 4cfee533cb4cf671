/**
 * The fault matrix (test/support/faultMatrix.ts) for faults that strike after the platform acted: the answer dropped,
 * a 502 instead of the answer, an answer slower than the attempt's timeout.
 */
import { AFTER_ACTING, faultMatrix } from "../support/faultMatrix";

faultMatrix(AFTER_ACTING, 1400);
