/**
 * Removes terminal control sequences and bidirectional overrides from text a
 * server sent, so it cannot move the cursor, recolour or hide text in the
 * terminal, or reorder what a reader sees. Newlines and tabs stay.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ANSI_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

export function stripControlSequences(text: string): string {
  return text.replace(ANSI_SEQUENCE, "").replace(CONTROL_CHARS, "").replace(BIDI_CONTROLS, "");
}
