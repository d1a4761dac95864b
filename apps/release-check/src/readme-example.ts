/**
 * The runnable example of a package README: the ```` ```js example ```` block. Its `// → text` comments
 * are what it prints (each must appear in its output).
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export interface ReadmeExample {
  code: string;
  /** The texts after `// →` on its lines, in order. */
  expected: string[];
  /** True when it starts the `everything` demo server with npx (the test installs it beside the package). */
  usesEverythingServer: boolean;
}

export function readmeExample(packageDir: string): ReadmeExample {
  const readme = readFileSync(path.join(packageDir, "README.md"), "utf8");
  const match = /^```js example\n([\s\S]*?)^```$/m.exec(readme);
  if (!match) throw new Error(`${packageDir}/README.md has no \`\`\`js example block`);
  const code = match[1]!;
  return {
    code,
    expected: [...code.matchAll(/\/\/ → (.+)$/gm)].map((m) => m[1]!.trim()),
    usesEverythingServer: code.includes("@modelcontextprotocol/server-everything"),
  };
}
