/** The fault matrix (test/support/faultMatrix.ts) for faults that strike before the platform acts: 503, 429, a dropped connection. */
import { FAULT_KINDS, faultMatrix } from "../support/faultMatrix";

faultMatrix(FAULT_KINDS.filter((kind) => ["503", "429", "drop"].includes(kind.name)));
