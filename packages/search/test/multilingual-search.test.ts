import { describe, expect, it } from "vitest";
import { rankTools } from "../src/index.js";
import { catalog, tool } from "./catalog-fixture.js";

/** The English fixture catalog plus tools described in other languages and scripts. */
const tools = [
  ...catalog,
  tool("browser-ja", "take_screenshot", "ページのスクリーンショットを撮影します。", {
    fullPage: { type: "boolean", description: "ページ全体を撮影する" },
  }),
  tool("browser-ja", "open_url", "指定したURLをブラウザで開きます。"),
  tool("files-ja", "create_file", "新しいファイルを作成します。"),
  tool("db-zh", "list_tables", "获取数据库中所有表的列表"),
  tool("db-zh", "run_query", "在数据库上执行SQL查询语句"),
  tool("files-ru", "create_file", "Создать новый файл в рабочей папке"),
  tool("files-ru", "delete_file", "Удалить файл из рабочей папки"),
  tool("mail-de", "send_mail", "Sendet eine E-Mail an einen Empfänger"),
  tool("mail-de", "list_folders", "Listet alle Ordner des Postfachs auf"),
  tool("docs-fr", "create_document", "Créer un nouveau document à partir d'un modèle"),
  tool("docs-fr", "export_data", "Exporter les données au format CSV"),
  tool("notes-ko", "create_note", "새 메모를 생성합니다"),
];

const top = (query: string, options = {}) =>
  rankTools(query, tools, options).hits.map((h) => h.tool.prefixedName)[0];

describe("search in other languages and scripts", () => {
  it.each([
    ["スクリーンショットを撮影", "browser_ja_take_screenshot"],
    ["画面を撮影", "browser_ja_take_screenshot"],
    ["URLを開く", "browser_ja_open_url"],
    ["新しいファイル", "files_ja_create_file"],
    ["数据库表", "db_zh_list_tables"],
    ["执行查询", "db_zh_run_query"],
    ["создать файл", "files_ru_create_file"],
    ["Удалить файлы", "files_ru_delete_file"],
    ["E-Mail senden", "mail_de_send_mail"],
    ["Ordner auflisten", "mail_de_list_folders"],
    ["créer un document", "docs_fr_create_document"],
    ["exporter les donnees", "docs_fr_export_data"],
    ["메모 생성", "notes_ko_create_note"],
  ])("%s → %s", (query, expected) => {
    expect(top(query)).toBe(expected);
  });

  it("matches with or without accents, in any case and width", () => {
    expect(top("DONNÉES")).toBe("docs_fr_export_data");
    expect(top("donnees")).toBe("docs_fr_export_data");
    expect(top("ｽｸﾘｰﾝｼｮｯﾄ")).toBe("browser_ja_take_screenshot");
  });

  it("finds a tool by a parameter described in another language", () => {
    expect(top("ページ全体")).toBe("browser_ja_take_screenshot");
  });

  it("finds tools through searchKeywords written in another language", () => {
    const searchKeywords = { git: { git_stash: ["変更を一時退避"] } };
    expect(top("一時退避", { searchKeywords })).toBe("git_stash");
  });

  it("leaves English ranking to the English words", () => {
    expect(top("screenshot page")).toBe("chrome_devtools_take_screenshot");
    expect(top("create a branch in github")).toBe("github_create_branch");
  });
});
