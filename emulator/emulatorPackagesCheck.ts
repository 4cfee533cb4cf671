/**
 * The emulator entry's first import (index.ts): when one of the emulator's packages (optional peer dependencies of
 * pulumi-svc) is missing, loading the emulator fails here with the command that installs them, before a require of
 * one of them would fail with a bare "Cannot find module".
 */
import { assertEmulatorPackages } from "./shared/optionalPackages";

assertEmulatorPackages();
