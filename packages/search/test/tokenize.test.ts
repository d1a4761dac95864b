import { describe, expect, it } from "vitest";
import { createTokenizer, normalizeName, stem, tokenize } from "../src/text/tokenize.js";

describe("tokenize", () => {
  it("splits ASCII names and text as before: separators, camelCase, digits, mixed words kept whole", () => {
    expect(tokenize("take_screenshot")).toEqual(["take", "screenshot"]);
    expect(tokenize("TwilioApiV2010--CreateMessage")).toEqual([
      "twilio",
      "api",
      "v",
      "2010",
      "create",
      "message",
    ]);
    expect(tokenize("HTTPServer removeBase64Images")).toEqual([
      "http",
      "server",
      "remove",
      "base",
      "64",
      "images",
    ]);
    expect(tokenize("r2 d1")).toEqual(["r", "2", "r2", "d", "1", "d1"]);
  });

  it("keeps letters and digits of every script, case-folded, with accents removed", () => {
    expect(tokenize("Créer données")).toEqual(["creer", "donnees"]);
    expect(tokenize("Größe STRASSE Straße")).toEqual(["grosse", "strasse", "strasse"]);
    expect(tokenize("Создать новый файл")).toEqual(["создать", "новыи", "фаил"]);
    expect(tokenize("ΟΔΟΣ οδός")).toEqual(["οδοσ", "οδοσ"]);
    expect(tokenize("हिन्दी पाठ")).toEqual(["हिन्दी", "पाठ"]);
  });

  it("normalises with NFKC: full-width letters, ligatures and decomposed accents match their plain forms", () => {
    expect(tokenize("ＡＢＣ１２３ ﬁle")).toEqual(tokenize("ABC123 file"));
    expect(tokenize("e\u0301te\u0301")).toEqual(["ete"]);
    expect(tokenize("ｽｸﾘｰﾝｼｮｯﾄ")).toEqual(tokenize("スクリーンショット"));
  });

  it("splits camelCase in any cased script", () => {
    expect(tokenize("DateiErstellen")).toEqual(["datei", "erstellen"]);
    expect(tokenize("создатьФайл")).toEqual(["создать", "фаил"]);
  });

  it("splits Japanese and Chinese into words with Intl.Segmenter, dropping lone hiragana particles", () => {
    expect(tokenize("スクリーンショットを撮影")).toEqual(["スクリーン", "ショット", "撮影"]);
    expect(tokenize("スクリーンショット 撮影")).toEqual(["スクリーン", "ショット", "撮影"]);
    expect(tokenize("获取数据库表列表")).toContain("列表");
    expect(tokenize("takeScreenshotで画面")).toEqual(["take", "screenshot", "画面"]);
  });

  it("gives Hangul words as bigrams, so a word with a particle still matches the bare word", () => {
    expect(tokenize("파일을 생성합니다")).toEqual(["파일", "일을", "생성", "성합", "합니", "니다"]);
    expect(tokenize("새 파일")).toEqual(["새", "파일"]);
  });

  it("falls back to character bigrams within a run when there is no segmenter", () => {
    const withoutSegmenter = createTokenizer(() => undefined);
    expect(withoutSegmenter("撮影する")).toEqual(["撮影", "影す", "する"]);
    expect(withoutSegmenter("画面 表")).toEqual(["画面", "表"]);
    // A query's bigrams are a subset of the tool text's, so the same words still meet.
    const tool = withoutSegmenter("ページのスクリーンショットを撮影します");
    for (const token of withoutSegmenter("スクリーンショット 撮影")) expect(tool).toContain(token);
    // Latin words keep their ordinary split.
    expect(withoutSegmenter("takeScreenshot 撮影")).toEqual(["take", "screenshot", "撮影"]);
  });

  it("asks for the segmenter only when text in a spaceless script first needs it", () => {
    let asked = 0;
    const lazy = createTokenizer(() => {
      asked++;
      return undefined;
    });
    lazy("plain English text");
    expect(asked).toBe(0);
    lazy("撮影");
    lazy("画面");
    expect(asked).toBe(1);
  });

  it("ignores emoji and a variation selector after one", () => {
    expect(tokenize("🛡️ Guardrails")).toEqual(["guardrails"]);
    expect(normalizeName("🛡️ Guard-rails")).toBe("guardrails");
  });
});

describe("normalizeName and stem", () => {
  it("compacts names of any script the same way whatever the separators, case or accents", () => {
    expect(normalizeName("take-Screenshot")).toBe("takescreenshot");
    expect(normalizeName("Créer_Données")).toBe(normalizeName("creer-donnees"));
    expect(normalizeName("スクリーン・ショット")).toBe("スクリーンショット");
  });

  it("stems English words only: numbers, short words and other scripts stay as they are", () => {
    expect(stem("channels")).toBe("channel");
    expect(stem("v2010")).toBe("v2010");
    expect(stem("фаилы")).toBe("фаилы");
  });
});
