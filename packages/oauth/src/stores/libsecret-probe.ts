/**
 * Whether the dynamic loader finds libsecret, the library the OS keyring
 * binding needs at run time on Linux. `@github/keytar` reports a missing
 * libsecret only as "Failed to load keytar native addon", so the hint that
 * tells a user what to install asks the loader directly: libsecret is not a
 * Node addon, so where it exists `dlopen` opens it and then fails to
 * register it; where it does not, the loader says it cannot open the file.
 */
export function libsecretLoads(): boolean {
  if (process.platform !== "linux") return true;
  try {
    process.dlopen({ exports: {} } as NodeJS.Module, "libsecret-1.so.0");
    return true;
  } catch (error) {
    return !/cannot open shared object file/.test(error instanceof Error ? error.message : String(error));
  }
}
