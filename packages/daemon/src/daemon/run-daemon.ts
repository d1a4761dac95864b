export async function runDaemon(_argv: string[], _env: NodeJS.ProcessEnv): Promise<void> {}
