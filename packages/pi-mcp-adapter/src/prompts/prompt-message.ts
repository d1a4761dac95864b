/**
 * A prompt's result (after the output guard) as the one user message it
 * becomes: its text parts joined, in order, into one text (role markers
 * kept), and its images beside it. A message with no image is plain text,
 * the form both Pi lines take most simply. The Pi shell sends it; the CLI
 * prints it.
 */
import type { CallResult } from "@pi-mcp-adapter/runtime";

export type UserMessagePart =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

export function promptUserMessage(result: Pick<CallResult, "content">): string | UserMessagePart[] {
  const texts: string[] = [];
  const images: UserMessagePart[] = [];
  for (const block of result.content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "image")
      images.push({ type: "image", data: block.data, mimeType: block.mimeType });
  }
  const text = texts.join("\n\n");
  return images.length ? [{ type: "text", text }, ...images] : text;
}
