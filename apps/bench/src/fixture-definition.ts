/** The test-kit stdio fixture server as a server definition: the one server every call benchmark talks to. */
import { type ServerDefinition, ServerDefinitionSchema } from "@pi-mcp-adapter/core/schemas";
import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";

export function stdioFixtureDefinition(): ServerDefinition {
  return ServerDefinitionSchema.parse({
    name: "fixture",
    transport: "stdio",
    command: process.execPath,
    args: [stdioFixtureServerPath],
    source: { file: "bench", key: "fixture" },
  });
}
