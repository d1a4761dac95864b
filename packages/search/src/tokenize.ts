/** Splits text into lower-case word tokens: on `_`, `-`, spaces, punctuation and camelCase. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Lower-case form with separators removed, for `take-screenshot` ≈ `take_screenshot` ≈ `takeScreenshot`. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}
