/**
 * The fault matrix (test/support/faultMatrix.ts) for faults that strike after the platform acted: the answer dropped,
 * a 502 instead of the answer, an answer slower than the attempt's timeout.
 */
import { FAULT_KINDS, faultMatrix } from "../support/faultMatrix";

faultMatrix(FAULT_KINDS.filter((kind) => ["commitThenDrop", "commitThenError", "slow"].includes(kind.name)));
