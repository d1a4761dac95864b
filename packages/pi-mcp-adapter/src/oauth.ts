/**
 * `pi-mcp-adapter/oauth`: the token API for cooperating Pi extensions.
 *
 * It re-exports the public token API of `@pi-mcp-adapter/oauth`. That package
 * has no token API yet (OAuth is being built), so this subpath exports
 * nothing today; it resolves so extensions can depend on the path.
 */
export {};
