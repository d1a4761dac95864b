/**
 * `npm run bench:shell -w apps/bench`: the Pi extension shell's measured
 * targets (design.md), each against a baseline of this run. The spawn counter
 * is installed before the code under test loads.
 */
import { cpus, loadavg } from "node:os";
import { installSpawnCounter } from "./shell-spawn-counter.js";

installSpawnCounter();
const { formatDefinitionSize, measureDefinitionSize } = await import("./shell-definition-size.js");
const { formatFactoryTime, measureFactoryTime } = await import("./shell-factory-time.js");
const { formatShellCall, measureShellCall } = await import("./shell-call-overhead.js");
const { formatStartupSnapshot, measureStartupSnapshot } = await import("./shell-startup-snapshot.js");
const { formatDirectTools, measureDirectTools } = await import("./shell-direct-tools.js");

console.log(
  `Load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} on ${cpus().length} cores (ratios are noisy when loaded)\n`,
);
const factory = await measureFactoryTime();
const snapshot = await measureStartupSnapshot();
const size = await measureDefinitionSize();
const direct = await measureDirectTools();
console.log(formatDefinitionSize(size));
console.log("");
console.log(formatFactoryTime(factory));
console.log("");
console.log(formatStartupSnapshot(snapshot));
console.log("");
console.log(formatDirectTools(direct));
console.log("");
console.log(
  formatShellCall([
    await measureShellCall("in-process"),
    await measureShellCall("in-process+38"),
    await measureShellCall("stdio"),
  ]),
);
if (
  size.spawned > 0 ||
  factory.spawned > 0 ||
  snapshot.spawned > 0 ||
  snapshot.oursMedianMs >= 50 ||
  direct.spawned > 0 ||
  direct.oursMedianMs >= 50
) {
  process.exitCode = 1;
}
