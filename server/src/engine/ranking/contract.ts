/**
 * The published ranking contract of `workspace_context` (docs/ARCHITECTURE.md, workspace_context's contract), every number in one place.
 *
 *   words = sum over question terms of idf x saturation / sum of their idf      (BM25F, graded)
 *   match = 0.60 x words + 0.40 x meaning      when the passage has an embedding (meaning: hybridMeaning of meaningTerm,
 *                                              held back where the words' evidence decides: 2026-12-06.3,
 *                                              one copy of a text lifted: 2026-12-06.5)
 *   match = words                              when it has none (never penalised for it)
 *   score = match                              when match < MIN_MATCH ("matches too little")
 *   score = match + title + namedEntity + recency + runHealth      otherwise (bonuses <= 0.50; title: an
 *                                              FAQ entry's own question where it holds more, asked as a question: 2026-12-07.1)
 *   match x SIGNED_RECORD_WEIGHT for a signed record, x RELEASE_NOTE_WEIGHT for a release note
 *   unless the question asks about a version or a change
 *   a passage whose score is below FLOOR is not returned.
 *
 * Changing any number here is a versioned contract change: bump CONTRACT_VERSION, which every
 * answer echoes, and say why in the changelog below.
 *
 * Changelog
 * - 2026-11-30.1: first version.
 *   Words are the query's terms present in the passage, each weighted by its inverse document
 *   frequency in the workspace (idf = ln(1 + N / df)), as a fraction of the query's total weight:
 *   with equal weights this is exactly "the fraction of your query's terms the passage contains",
 *   and a rare term ("dunning", `BILLING_RETRY_MAX_ATTEMPTS`) counts for more than a common one
 *   ("service"). Meaning is the cosine of the two embeddings clamped to 0..1.
 * - 2026-11-30.2: meaning maps cosine linearly from the model's "unrelated" anchor (0) to its
 *   "related" anchor (1), clamped: raw MiniLM cosines of good paraphrases sit at 0.4-0.6, so
 *   the plain cosine let meaning carry a fraction of its published 0.40.
 * - 2026-12-01.1: words are graded. Each question term's presence is its BM25F saturation in
 *   0..1 (frequency per field, length-normalised, heading and title weighing more than the body)
 *   instead of 0 or 1, so a term said once in a 900-word changelog no longer counts as much as a
 *   heading that is the term; still "the share of your question's terms the passage contains",
 *   weighted by idf. The title bonus is the graded share of the title; the named-entity bonus
 *   fades when the named entities hold most of the index; at most DOCUMENT_CAP passages of one
 *   document come before other documents'; an identifier's parts earn partial credit; a
 *   question's frame ("how do I") is not content and FAQ headings weigh more for questions.
 *   Stems are Porter2 (deploy / deployment one stem). MIN_MATCH 0.25 -> 0.20 and FLOOR
 *   0.12 -> 0.05, because graded words sit lower than the old presence share (one body mention
 *   at average length is 0.45, not 1). Measured, words only, nDCG@10: Argo CD docs (60
 *   labelled questions) 0.597 -> 0.693, against the dataset's BM25 0.652 and Lunr 0.547 in the
 *   same run; BEIR SciFact 0.665 -> 0.687.
 * - 2026-12-01.2: meaning is measured from the question's own crowd. 0 at the cosine the
 *   question reaches with the workspace's 90th-percentile section (MEANING_CROWD_PERCENTILE,
 *   read from a strided sample of MEANING_SAMPLE sections) and 1 at MEANING_SPAN above it,
 *   instead of at the model's fixed anchors (MiniLM 0.10 / 0.60). On one product's docs the
 *   crowd of loosely related sections already reaches 0.46 (Argo CD: a question's
 *   99th-percentile section, median over questions) and the answers 0.66, so the fixed anchors
 *   gave both a full 1.00 and meaning could not rank them; fixed 0.40 / 0.80 anchors fix that
 *   corpus but zero the answers of a workspace spanning many subjects (the example: hybrid
 *   nDCG@10 0.643 -> 0.527). Measured hybrid nDCG@10 (MiniLM, every section embedded): Argo CD
 *   0.717 -> 0.749, BEIR SciFact 0.720 -> 0.732, the example 0.643 -> 0.643. The model's
 *   anchors still apply below MEANING_MIN_SAMPLE sections with vectors. Words only: unchanged.
 * - 2026-12-01.3: a signed record's match counts SIGNED_RECORD_WEIGHT (0.8): a document whose
 *   front matter names its authors (a design proposal, an RFC, a blog post) is a record of a
 *   moment, and on Argo CD its proposals outranked the operator manual's answer on the same
 *   subject (how-to questions). why[] shows it in the words and meaning weights. Passages of
 *   equal score are ordered by their document's path (then their place in it) instead of by
 *   section id, a hash: the workspace's reading order, as an index-order baseline has it. Argo
 *   CD nDCG@10, words only: 0.699 -> 0.712 (keyword 0.974 -> 0.993 on the order of a tie,
 *   howto 0.817 -> 0.860); hybrid 0.751 -> 0.761. BEIR SciFact and the example: unchanged.
 * - 2026-12-01.4: the meaning term is curved, meaningRaw ^ MEANING_CURVE (0.75): concave, still 0
 *   at the question's crowd and 1 at MEANING_SPAN above it, so being well above the crowd counts
 *   nearly as much as being at its very top. Hybrid nDCG@10: Argo CD 0.761 -> 0.772, BEIR
 *   SciFact 0.732 -> 0.732, the example 0.653 -> 0.663. Words only: unchanged.
 * - 2026-12-04.1: configuration keys are identifiers, and release notes give way to the page.
 *   Judged on three documentation corpora nobody here wrote (Argo CD's, cert-manager's,
 *   GoReleaser's; 184 labelled questions, bench/RESULTS.md) instead of one.
 *   Key paths: a section's YAML, JSON and TOML blocks give their key paths as terms, each whole
 *   and by its trailing forms of two or more keys (`spec.privatekey.rotationpolicy`,
 *   `privatekey.rotationpolicy`; chunking/codeKeys.ts), so a question naming a dotted path meets
 *   the block that nests it; a question's path (written with `[]`, `.0.` or `<name>` segments as
 *   users do) matches whole, by its trailing forms at TRAILING_FORM_CREDIT_MAX at most (the
 *   idf-weighted share of the path they hold), or by its parts, and why[] names the form
 *   (`trailing repository.token`). A path is a name: its whole and trailing forms ignore the
 *   body's length (b 0), so a long configuration reference that shows the key once holds it as
 *   strongly as a short note that names it. The parts' lower credit applies once the workspace
 *   spells the path or a trailing form of it. Words only, nDCG@10 Argo CD / cert-manager /
 *   GoReleaser: 0.712 / 0.765 / 0.766 -> 0.719 / 0.778 / 0.789; identifier questions 0.937 /
 *   0.755 / 0.833 -> 0.968 / 0.784 / 0.943. Not kept: trailing forms of paths written in prose
 *   (cert-manager 0.778 -> 0.772, mostly release notes that spell full paths), every identifier
 *   length-free (Argo CD 0.719 -> 0.715, cert-manager 0.778 -> 0.768).
 *   Release notes: a document in a release-notes folder, a repository changelog, or one whose
 *   title or file name names a version and says it is a release, an upgrade or an announcement
 *   (documentRoles.ts) has its match count RELEASE_NOTE_WEIGHT unless the question asks about a
 *   version or a change; why[] says so. Grid, words only, Argo CD / cert-manager / GoReleaser:
 *   1 -> 0.719 / 0.778 / 0.789, 0.8 -> 0.719 / 0.796 / 0.793, 0.7 -> 0.719 / 0.801 / 0.794,
 *   0.6 -> 0.721 / 0.805 / 0.794, 0.5 -> the same as 0.6. BEIR SciFact words only: 0.680 ->
 *   0.680 (no key paths, no release notes).
 * - 2026-12-04.2: meaning adds without taking away (hybridMeaning): a passage's meaning counts at
 *   least its words, and adds only for the share of the question in plain words, so the hybrid
 *   match is never below the words-only match and a question of identifiers ranks as on words.
 *   The hybrid lowered 22 of 184 documentation questions below words alone; the passages it
 *   pulled up had cosines above the question's crowd and few words, while the answers the words
 *   found sat under the crowd (a corpus of many similar sections: install pages, upgrade notes)
 *   or were asked by a key path whose embedding is topical noise. Hybrid nDCG@10 Argo CD /
 *   cert-manager / GoReleaser (words only 0.721 / 0.805 / 0.794): 0.764 / 0.837 / 0.841 ->
 *   0.767 / 0.852 / 0.856; questions lowered 22 -> 16. By style the hybrid is at or above words
 *   alone everywhere but Argo CD's keyword questions (0.979 against 0.993, one question: a
 *   command's options page, long, below its crowd) and identifier ones (0.967 / 0.968). BEIR
 *   SciFact hybrid 0.731 -> 0.729 (7 claims up, 16 down); the example 0.648 -> 0.647 (its
 *   meaning-only cases 0.389 -> 0.358, words cases 0.923 -> 0.954). Tried: the floor at a share
 *   of the words (0.85 and 0.9: SciFact 0.730, cert-manager how-to 0.884 against 0.896 on
 *   words), only for words >= 0.5 (SciFact 0.731, how-to below words on two corpora), meaning's
 *   zero at the 80th / 95th percentile (Argo CD +0.003 / -0.005, cert-manager -0.005 / -0.007),
 *   the curve at 1 and 0.5 (within 0.005, mixed).
 * - 2026-12-04.3: the order shown is always the score's: DOCUMENT_CAP is a candidate rule only
 *   (at most 2 passages of one document are taken while others fill the limit; the answer's
 *   heldBack names what it kept out), no longer a reordering. And a verb and its particle written
 *   apart meet the word the workspace writes joined (text/compounds.ts): "how do I roll back an
 *   application?" asked of Argo CD's docs meets `argocd app rollback`, "rolling back", "logged
 *   in", "times out" their stems' joins. The pair becomes one unit, the joined word, whose parts
 *   are the two words at COMPOUND_PART_CREDIT and whose weight is theirs: a section with the two
 *   words scores what it did. Only a particle's pair is joined (back, up, out, in, off, over,
 *   down, on, away, through): joining any pair the index holds joined also made `keypair` of
 *   "key pair" and `argocd` of "Argo CD" (names whose joined form is a part of identifiers), and
 *   moved the three documentation corpora by -0.006 to +0.007. Of the 184 labelled
 *   questions one holds such a pair (cert-manager c034, "times out" -> `timeout`: 0.967 ->
 *   0.947); the rest are unchanged (words only, nDCG@10 Argo CD / cert-manager / GoReleaser
 *   0.721 / 0.805 / 0.794 -> 0.721 / 0.804 / 0.794).
 * - 2026-12-06.1: several served folders asked at once are merged on one scale (issue 39). Each
 *   folder still ranks its own index, but weighs the question's terms by their document
 *   frequencies summed over every asked folder (questionStatistics.ts), so a term has one weight
 *   in every folder and the scores merge: before, a project's name, said in nearly every section
 *   of its own folder, weighed nothing there, and another folder's pages holding the question's
 *   other words outranked the named project's. A question that names one of the asked folders
 *   (its name, `-`, `_` and spaces alike) gives that folder's passages the named-entity bonus,
 *   faded by the folder's share of the asked sections as an entity's is; why[] says so. A folder
 *   asked by name, or served alone, scores as before. Judged on the dev suite's four-repository
 *   set (bench/corpora/secrets, 74 questions), the only corpus served as several folders: words
 *   only nDCG@10 0.739 -> 0.774 (11 questions up, 1 down; paraphrase +0.080, cross +0.042, no
 *   style lower), hybrid 0.775 -> 0.793 (8 up, 2 down); the six one-folder corpora unchanged.
 * - 2026-12-06.2: a key path's last key, when it is a name of two words or more
 *   (`creationPolicy`, `format_overrides`), is also one of its trailing forms (keyPaths.ts
 *   askedPath `leaf`): prose names a key by its last segment ("set `creationPolicy` to Merge").
 *   Credited as any trailing form (the share of the path's weight its key holds), but read as a
 *   word, with the section's length counted: alone it is prose, not a path. It does not count as
 *   the workspace spelling the identifier (the parts keep their 0.7). Dev suite: only the
 *   four-repository set moves, identifier 0.750 -> 0.764 words only, 0.747 -> 0.764 hybrid (one
 *   question up, `spec.target.creationPolicy Merge` 0.31 -> 0.61; one down,
 *   `spec.refreshInterval` 0.43 -> 0.30, a section headed by `refreshInterval` now among the
 *   first 10); the six other corpora unchanged question for question.
 * - 2026-12-06.3: where MiniLM and the words disagree, the words' evidence decides (issue 39,
 *   point 5; workspaceContextRanker.ts holdToEvidence). A passage that lacks the question's rarest
 *   term (its greatest idf weight: the most specific word, which an embedding of a passage's gist
 *   cannot tell present from absent) is not lifted by its meaning past a passage that holds every
 *   term of the question (whole, or a key path by a trailing form; an identifier's parts alone do
 *   not count) with at least its words: its meaning counts just enough to rank right after that
 *   passage, never less than its words, and why[] names the term and the passage. No constant.
 *   Meaning still orders passages that each hold something the other lacks, and every question no
 *   passage holds whole (paraphrases). The hybrid lowered Argo CD's keyword and identifier
 *   questions below words alone: command pages and guides on the subject that never name
 *   `--parallelismlimit` or `create-token` passed the pages that do on their cosines. Dev suite,
 *   hybrid nDCG@10, the branch head before (words only unchanged, question for question): Argo CD
 *   0.786 -> 0.790 (keyword 0.979 -> 0.987, identifier 0.957 -> 0.969; a020 0.83 -> 0.92, a025
 *   0.56 -> 0.71), Scrapy 0.897 -> 0.897 (+0.0008, howto 0.911 -> 0.915), GoReleaser +0.0003
 *   (keyword 0.983 -> 0.985); cert-manager, rclone, Babel and the four-repository set unchanged.
 *   Not kept (measured the same way): meaning's lift scaled by what the best words leave (1 - the
 *   question's best words value; Argo CD paraphrase 0.279 -> 0.230, faq 0.804 -> 0.759), by the
 *   share of the question the passage holds (Argo CD paraphrase -> 0.162), and the rule without
 *   "every term" or without "the rarest" (any passage holding a strict superset of another's terms
 *   with more words: Argo CD faq 0.804 -> 0.721, Scrapy faq 0.954 -> 0.840; every term but any
 *   missing one: Babel howto 0.825 -> 0.806, three corpora lower).
 * - 2026-12-06.4: a key path held is held once (issue 39, point 3; fields.ts oneBodyOccurrence):
 *   its whole form and trailing forms, already not discounted for a section's length, no longer
 *   count each occurrence in the body either, so a section that shows `spec.refreshInterval` in
 *   eight example manifests holds it as strongly as one that names it once (its heading, title
 *   and context counts stay). Before, 13 sections of example manifests held the key above the
 *   FAQ and the API page that explain it. No constant. Dev suite (npm run eval -- --dataset docs,
 *   against main's recorded ranking): the four-repository set words only 0.784 -> 0.787
 *   (identifier 0.802 -> 0.819, k026 `spec.refreshInterval` 0.30 -> 0.48), hybrid 0.809 -> 0.811
 *   (identifier 0.821 -> 0.837); cert-manager words only 0.832 alike (c001 0.77 -> 0.91, c051
 *   0.61 -> 0.48: faq 0.805 -> 0.795), hybrid unchanged; the five other corpora unchanged
 *   question for question.
 * - 2026-12-06.5: meaning lifts one copy of a text (issue 39, point 5; scoredCandidates.ts
 *   liftOneCopy). A passage whose text, heading line included, is word for word the text of a
 *   passage ranked above it, and which lacks the question's rarest term, scores its words alone:
 *   the copies' vectors differ only by their page's title and opening lines, so their cosines
 *   are all but equal, and a copy's meaning adds nothing the first copy did not. A copy
 *   holding the rarest term keeps its lift (a question naming a flag that every command page
 *   documents is answered by each of them). No constant. rclone's generated command pages repeat
 *   the VFS sections on ten pages: a paraphrase MiniLM read close to "Fingerprinting" got that
 *   section ten times, each lifted past the pages the words found (r022 `--ignore-existing` 0.32
 *   words only, 0 hybrid). Dev suite, hybrid nDCG@10 against main's recorded ranking (words only
 *   unchanged): rclone 0.849 -> 0.855 (paraphrase 0.411 -> 0.440, above words only's 0.427; r022
 *   0 -> 0.36), the six other corpora unchanged question for question. Not kept: every copy after
 *   the first scoring its words, whatever it holds (Babel keyword 1.000 -> 0.993: the preset's
 *   copy of `importSource` is an answer too; rclone keyword 0.956 -> 0.955). A store ranks its
 *   candidates before it reads their texts: it compares the digest of each text, written with
 *   the section (schema version 6), so its answers are memory's.
 * - 2026-12-07.1: an FAQ entry is titled by its question (issue 39, point 6; entryTitles.ts).
 *   Asked as a question, a section whose own heading is a question earns the title bonus for the
 *   better of its page's title and its own question, graded as a title. An FAQ page's title
 *   ("FAQ") holds none of a question's words, so its entries earned no title bonus where a page
 *   titled with the question's subject earned up to 0.2; four generated `rclone serve` pages'
 *   "Auth Proxy" passed "Can I use rclone with an HTTP proxy?" on "rclone" in their titles. No
 *   constant. Dev suite, nDCG@10 against the same run's main (e94db7e): words only faq Argo CD
 *   0.670 -> 0.681, cert-manager 0.795 -> 0.870, rclone 0.932 -> 0.961, Scrapy 0.804 -> 0.860
 *   (BM25 0.828), the four-repository set 0.793 -> 0.846 (howto 0.817 -> 0.810); overall five
 *   corpora up (Scrapy 0.857 -> 0.868, above BM25's 0.861), none down. Hybrid: Argo CD 0.790 ->
 *   0.791, cert-manager 0.876 -> 0.878, the four-repository set 0.811 -> 0.810 (k042 one file
 *   lower), the others unchanged question for question. Not kept: the same for every question,
 *   however asked (simulated over the heading path: hybrid paraphrases lower on Argo CD, Babel
 *   and Scrapy, b022, s021, k015); and, measured only, the title bonus at 0 (faq up, but Scrapy
 *   keyword -0.031 and the four-repository set's howto -0.024).
 * - 2026-12-07.2: QUESTION_HEADING_BOOST 2 -> 4 (issue 39, point 6): fitted leave-one-corpus-out
 *   over the dev suite with FAQ entries titled (its comment has the grid). Before, the boost at
 *   4 lowered hybrid answers on Argo CD and the four-repository set (FAQ entries sharing a few
 *   words passed the page that answers); with the entries' title bonus in place it lowers none.
 *   Dev suite, nDCG@10 against 2026-12-07.1 in one run: words only Babel 0.842 -> 0.848 (faq
 *   0.826 -> 0.855), cert-manager 0.848 -> 0.854 (faq 0.870 -> 0.898), Scrapy 0.868 -> 0.870,
 *   Argo CD 0.723 -> 0.722 (paraphrase 0.113 -> 0.102: a040 ends "What can I do?"); hybrid
 *   cert-manager 0.878 -> 0.884 (faq 0.928 -> 0.957), Argo CD faq 0.820 -> 0.821, the others
 *   unchanged.
 * - 2026-12-07.3: a reference table's key column is key paths, and a key is one key however its
 *   words are joined (issue 39, found on the eighth dev corpus, Spring Cloud Gateway, the first
 *   measured before anything was fitted to it). A table row whose first cell is one dotted key
 *   gives its trailing forms, as a configuration block does (chunking/sectionKeyPaths.ts); a
 *   key-path term that joins words with `-` or `_` is indexed unseparated too, and a question's
 *   path written so looks that form up as a trailing form of all its keys (text/keyPaths.ts):
 *   `httpclient.ssl.useInsecureTrustManager` meets the property table's
 *   `spring.cloud.gateway.server.webflux.httpclient.ssl.use-insecure-trust-manager`. Dev suite
 *   against 2026-12-07.2, both modes: words only Spring Cloud Gateway 0.821 -> 0.827 (identifier
 *   0.911 -> 0.940, n037 0.61 -> 1.00), hybrid 0.868 -> 0.874 (n037 the same), no other
 *   question of the eight corpora moved in either mode. Not kept: the trailing forms of every
 *   dotted path in prose (cert-manager how-to 0.896 -> 0.865, c038 1.00 -> 0.63, as on three
 *   corpora before).
 * - 2026-12-07.4: `except` is a word, not a stop word (text/stopWords.ts; issue 39, found on the
 *   ninth dev corpus, pnpm's docs, measured before anything was fitted to it). Dev suite against
 *   2026-12-07.3, both modes: pnpm words only 0.738 -> 0.749 (howto 0.704 -> 0.761, p045 "run a
 *   command in all workspace projects except one" 0.32 -> 1.00), hybrid 0.815 -> 0.825 (p045
 *   0.36 -> 1.00); no other question of the nine corpora moved. Not kept: `without` and `only`
 *   as words too (rclone faq -0.028), and the quantifiers `all`, `every`, `each`, `other`, `any`
 *   with them (GoReleaser howto -0.031).
 * - 2026-12-07.5: a word is one word however a hyphen joins it (text/analyzer.ts `joinedWord`;
 *   issue 39, found on the eighth dev corpus, Spring Cloud Gateway). Two runs of letters joined by
 *   one hyphen are also the word they join to, stemmed as a word (`re-reading` -> `reread`,
 *   `built-in` -> `builtin`), counted in neither a section's length nor a title's; a question's
 *   hyphenated word is looked up by it. A chain of three or more (`link-workspace-packages`) is a
 *   name: joined, pnpm's p030 `link-workspace-packages` met a link's anchor slug
 *   (`#linkworkspacepackages`) and fell 1.00 -> 0.92. Dev suite against 2026-12-07.4 (ten
 *   corpora), both modes: words only Spring Cloud Gateway 0.827 -> 0.833 (n006 "mvc reread
 *   request body filter" 0.63 -> 1.00: the AdaptCachedBody filter says "re-reading"; its keyword
 *   style 0.924 -> 0.955, BM25 0.953), Cargo 0.753 -> 0.755 (u007 0.48 -> 0.61), the
 *   four-repository set's k047 0.818 -> 0.832, cert-manager 0.854 -> 0.853
 *   (c045 0.25 -> 0.20: "auto-approval" is now a word the workspace spells, as "auto-approver",
 *   so its parts alone earn 0.15, not 0.7); hybrid Spring Cloud Gateway 0.874 -> 0.880 (n006 the
 *   same), Cargo 0.816 -> 0.819 (u007 "disable future-incompat report notice" 0.62 -> 0.82),
 *   GoReleaser g027 0.832 -> 0.818 (the corpus unchanged at 0.866). Measured first with the joined
 *   word counted in lengths, and for chains of any length: twenty questions moved on nine corpora,
 *   most by a section's length, not by the word (Babel b014 0.82 -> 0.61).
 * - 2026-12-07.6: a question's hyphenated word that the workspace writes neither hyphenated nor
 *   joined is its two words written apart, weighed and matched as a compound (questionUnits.ts
 *   `weighUnit`; issue 39, found on the eleventh dev corpus, Vite's docs, measured before anything
 *   was fitted to it): v048 "... my object-form manualChunks config no longer works" is answered
 *   by migration.md's "Removed object form `build.rollupOptions.output.manualChunks`", which held
 *   the unit only by its parts (weighed as their mean, at 0.7) and came 4th behind the Vite 8
 *   announcement's sections. Dev suite against 2026-12-07.5 (eleven corpora), both modes: words
 *   only Vite 0.802 -> 0.805 (howto 0.798 -> 0.820, BM25 0.813; v048 0.31 -> 0.61, v038 0.39 ->
 *   0.35, v055 0.92 -> 0.88), GoReleaser 0.794 -> 0.794 (g027 0.42 -> 0.46); hybrid Vite 0.870 ->
 *   0.876 (v055 0.69 -> 0.85), GoReleaser g027 0.82 -> 0.85; no other question of the eleven
 *   corpora moved.
 * - 2026-12-08.1: a word is one word however a camelCase capital joins it, as with a hyphen
 *   (text/analyzer.ts `joinedWord`; issue 39, found on the twelfth dev corpus, ESLint's docs,
 *   measured before anything was fitted to it). A token of two runs of letters joined by a capital
 *   (`camelCase`, `macOS`, `CommonJS`, `GoReleaser`, `nodeLinker`) is also the word it joins to,
 *   stemmed as a word (`camelcas`, `maco`, `commonj`, `goreleas`, `nodelink`, which `node-linker`
 *   gives too), counted in neither a section's length nor a title's; a question's such word is
 *   looked up by it. e034 "How do I enforce camelCase variable names ..." could not meet the rule
 *   page titled and written "camelcase" (stemmed `camelcas`, not the identifier's `camelcase`):
 *   0.00 against BM25's 0.50, 1.00 now. A name of three parts or more (`ignoreRestSiblings`)
 *   stays a name. Dev suite against 2026-12-07.6 (eleven corpora), both modes: words only
 *   GoReleaser 0.794 -> 0.801 (g017 "dmg disk image macos" 0.63 -> 1.00, g049 0.97 -> 1.00, g062
 *   0.81 -> 0.82), Babel 0.848 -> 0.854 (b017, "CommonJS", 0.63 -> 1.00; paraphrase 0.596 ->
 *   0.627), Vite 0.805 -> 0.809 (v048, `manualChunks`, 0.61 -> 0.82); hybrid GoReleaser g049
 *   0.97 -> 1.00, Scrapy s055 0.92 -> 1.00, Vite v048 0.61 -> 0.82 and v057 0.36 -> 0.33 (the
 *   corpus 0.876 -> 0.879); no other question moved. ESLint (not in main's record) words only
 *   0.845 -> 0.861, hybrid 0.892 -> 0.898, e034 the only question moved.
 * - 2026-12-08.2: words only, a passage lacking the name a question asks about does not pass one
 *   holding every term (issue 39; scoredCandidates.ts holdToNames). When the question's rarest
 *   term is a name (an identifier that is not a word written joined, text/analyzer.ts
 *   joinedWord: a key path, a flag, an environment variable), every kept passage that lacks it
 *   and ranks above the last passage holding every term of the question (whole, or a key path by
 *   a trailing form; an identifier's parts alone do not count) is held to score just under that
 *   passage, in its own order, and why[] says so. The rule reads the first NAME_EVIDENCE_WINDOW
 *   (30) passages whatever the limit, so that every limit reads the same window and the explain
 *   path still reads a smaller limit from a deeper run's prefix. Simulated first on the fifteen
 *   corpora (bench/evidenceTrial.ts): applied to any rarest term 9 questions up and 14 down, to
 *   an identifier 7 up and 4 down (hyphenated words such as `public-read`), to a name 5 up and
 *   none down. Built, words only, against main's record (fifteen corpora): GoReleaser g001
 *   `archives.format_overrides.formats zip for windows` 0.92 -> 1.00, Spring Cloud Gateway n033
 *   `X-RateLimit-Remaining header` 0.61 -> 1.00 (identifier 0.940 -> 0.970, BM25 0.951), Cargo
 *   u030 `CARGO_BIN_EXE_<name>` 0.85 -> 0.95, Vite v029 `build.emptyOutDir outside root` 0.88 ->
 *   1.00; no other question moved. Hybrid unchanged: meaning's own evidence rule (2026-12-06.3)
 *   governs there.
 */

export const CONTRACT_VERSION = '2026-12-08.2';

/** Weight of the words half of the match when the passage has an embedding. */
export const WORDS_WEIGHT = 0.6;
/** Weight of the meaning half of the match when the passage has an embedding. */
export const MEANING_WEIGHT = 0.4;

/** Bonus weights; they total 0.50, so they never promote a passage over one that matches materially more. */
export const TITLE_WEIGHT = 0.2;
export const NAMED_ENTITY_WEIGHT = 0.15;
export const RECENCY_WEIGHT = 0.1;
export const RUN_HEALTH_WEIGHT = 0.05;
export const MAX_BONUS = TITLE_WEIGHT + NAMED_ENTITY_WEIGHT + RECENCY_WEIGHT + RUN_HEALTH_WEIGHT;

/** Recency decays linearly from 1 (committed now) to 0 at this age. */
export const RECENCY_WINDOW_DAYS = 365;

/**
 * Below this match a passage "matches too little of what you asked" and scores its match and
 * nothing else. With graded words, a passage holding half a question's weight at a typical
 * saturation (0.45) sits at 0.22: it earns the bonuses, one holding a common term once does not.
 * 0.20 and 0.25 measured alike on Argo CD (0.693 / 0.691 nDCG@10); 0.20 keeps more answers.
 */
export const MIN_MATCH = 0.2;

/**
 * Passages scoring below this are not answers and are not returned. 0.05: at 0.12 (the presence
 * share's floor) long natural questions, whose words spread over many terms, returned nothing
 * at all for 2 of 60 Argo CD questions; 0.05 returns them (paraphrase nDCG@10 0.078 -> 0.092).
 */
export const FLOOR = 0.05;

/**
 * BM25F's saturation constant: a term's pseudo-frequency tf~ (fields weighted and length
 * normalised) saturates as tf~ / (K1 + tf~). Robertson's usual 1.2; 0.9 and 1.6 measured within
 * 0.001 nDCG@10 of it on Argo CD.
 */
export const BM25F_K1 = 1.2;

/**
 * How much one occurrence in each field counts, against one in the body (the contracts weigh
 * headings and titles above the body). Measured on Argo CD, nDCG@10: heading 2 -> 0.693,
 * 3 -> 0.691, 5 -> 0.685; title 1 / 2 / 4 within 0.002; context (folder, type, tags) 0.3 / 1
 * alike. SciFact: heading 2 -> 0.687, 3 -> 0.681.
 */
export const FIELD_WEIGHTS = Object.freeze({ body: 1, heading: 2, title: 2, context: 1 });

/**
 * Length normalisation per field (0 none, 1 full): BM25's b. The body's 0.75 is BM25's own;
 * headings and titles are short and vary little (0.2 and 0.5 measured alike); the context
 * field is a few folder words, not normalised.
 */
export const FIELD_LENGTH_NORMALISATION = Object.freeze({ body: 0.75, heading: 0.5, title: 0.5, context: 0 });

/**
 * When the question is itself a question, a section whose own heading is a question (an FAQ
 * entry) counts the words it shares with it this many times as much in its heading. First
 * measured on Argo CD alone (faq nDCG@10: 1 -> 0.658, 2 -> 0.662, 3 and 5 -> 0.666). Fitted
 * leave-one-corpus-out on the seven-corpus dev suite once FAQ entries were titled by their
 * question (2026-12-07.2): words only, 2 / 3 / 4 / 5 / 6 / 8 give cert-manager 0.848 / 0.848 /
 * 0.854 / 0.854 / 0.854 / 0.854, Babel 0.842 / 0.848 / 0.848 ..., Scrapy 0.868 / 0.868 / 0.870 /
 * 0.870 / 0.870 / 0.869, the four-repository set 0.795 until 0.793 at 8, GoReleaser and rclone
 * flat, Argo CD 0.723 / 0.721 / 0.722 / 0.727 / 0.727 / 0.733: a plateau from 4 on every corpus
 * but Argo CD, whose rise alone moves the fit to 8. 4, the plateau's first value and the value
 * fitted without Argo CD, passes the keep rule in both modes (bench/RESULTS.md).
 */
export const QUESTION_HEADING_BOOST = 4;

/**
 * What an identifier's parts can give at most when the identifier itself is absent, as a share of
 * a full match: `source.helm.ignoreMissingValueFiles` asked of a page that shows
 * `ignoreMissingValueFiles` under `helm:` still matches, below one that spells the whole path.
 * Before parts counted at all, Argo CD identifier questions scored nDCG@10 0.761; with them
 * 0.908-0.920 (credit 0.5 / 0.7 / 0.9 within 0.007 of each other). On the seven-corpus dev
 * suite (`--grid`, 2026-12-07) 0.6-0.9 are flat on five corpora; cert-manager is best at 0.5-0.6
 * (0.856 against 0.854), Scrapy at 0.9 (0.873 against 0.870), Argo CD loses at 0.5: each held-out
 * corpus changes by 0.000 at the value fitted without it but Scrapy (-0.005 at 0.6). 0.7 stays.
 */
export const IDENTIFIER_PART_CREDIT = 0.7;

/**
 * The parts' credit when the workspace does spell the identifier somewhere: then the asker
 * most likely means the places that name it, and a section that only shares its words
 * (`BillingWorkerLedgerRejects` for `LedgerUnbalancedRejects`) is weaker evidence. Argo CD
 * identifier questions, nDCG@10: 0 -> 0.906, 0.15 -> 0.937, 0.3 -> 0.922, 0.7 -> 0.932; at 0.5
 * and above the example's ledger alert question ranks billing-worker's ledger alert first. On the
 * seven-corpus dev suite (`--grid` 0 / 0.15 / 0.3 / 0.5, 2026-12-07) 0.15 is the value fitted
 * without each corpus but cert-manager (without it 0 is fitted, on Babel's 0.854 against 0.848,
 * and costs cert-manager 0.004).
 */
export const SPELLED_IDENTIFIER_PART_CREDIT = 0.15;

/**
 * The parts' credit of a compound (text/compounds.ts): "roll back" asked of a workspace that
 * writes `rollback`; a section with the two words holds the same thing as one with the joined
 * word.
 */
export const COMPOUND_PART_CREDIT = 1;

/**
 * The most a key path's trailing form can give, as a share of a whole match: a section showing
 * `privateKey.rotationPolicy` (under whatever parent) meets a question naming
 * `spec.privateKey.rotationPolicy` by the share of the path's weight its segments hold (each
 * segment weighed by its idf, so a missing `spec` costs little and a missing `homebrew_casks` a
 * lot), at most this. 0.8, 0.9 and 1.0 measured alike on the three documentation corpora: a
 * trailing form rarely holds all but a negligible segment; below 1 a section naming the whole
 * path still comes first. 0.7 / 0.8 / 0.9 / 1 moved no question of the seven-corpus dev suite
 * (`--grid`, 2026-12-07).
 */
export const TRAILING_FORM_CREDIT_MAX = 0.9;

/**
 * A key path's trailing form's credit: the idf-weighted share of the path's segments it holds,
 * at most TRAILING_FORM_CREDIT_MAX. `segmentWeights` are the path's segments' idf (0 for a
 * placeholder or a stop word), `from` the form's first segment.
 */
export function trailingFormCredit(
  segmentWeights: readonly number[],
  from: number,
  max: number = TRAILING_FORM_CREDIT_MAX,
): number {
  let total = 0;
  let held = 0;
  segmentWeights.forEach((w, i) => {
    total += w;
    if (i >= from) held += w;
  });
  return total > 0 ? Math.min(max, held / total) : 0;
}

/**
 * A candidate rule, not part of the order: the passages shown are the best `limit` taking at
 * most this many of one document while other documents' passages are left (a 900-section
 * changelog cannot fill the answer), always shown in score order; the answer names each document
 * whose further passages the rule kept out, with how many (`heldBack`). Argo CD, nDCG@10 over
 * distinct files: cap 2 -> 0.688, 3 -> 0.685, 10 (no cap in effect) -> 0.677.
 */
export const DOCUMENT_CAP = 2;

/**
 * How many of the best passages by the formula the words-only evidence rule reads
 * (scoredCandidates.ts holdToNames): a 10-passage answer's candidates, 10 x (DOCUMENT_CAP + 1),
 * whatever the limit asked. Fixed, so that an answer at any limit is read from the same window:
 * a deeper run's first passages are a shallower one's, as the explain path needs (it reads a
 * smaller limit from a deeper run). Not fitted: the rule was simulated on the first 30
 * (bench/evidenceTrial.ts).
 */
export const NAME_EVIDENCE_WINDOW = 30;

/**
 * What the match of a signed record counts for: a document whose front matter names its authors
 * (`author` / `authors`: a design proposal, an RFC, a blog post) records a moment of discussion,
 * and a question is better answered by the maintained page on the same subject.
 * Argo CD (32 of its 455 files are design proposals with authors in their front matter; no
 * other file has front matter), nDCG@10 words only / hybrid: 1 -> 0.702 / 0.751, 0.9 and 0.8 ->
 * 0.712 / 0.761 (howto 0.817 -> 0.860), 0.7 and 0.6 -> 0.719 / 0.769 (howto 0.890). 0.8, the
 * milder end of the plateau: a record still answers when no maintained page matches as well.
 * SciFact and the example have no such front matter: unchanged. On the seven-corpus dev suite
 * (`--grid` 0.6-1, 2026-12-07) only Argo CD and GoReleaser (signed blog posts) move; 0.7 is
 * fitted on the others for six corpora (Argo CD 0.722 -> 0.728), but as a candidate it lowers
 * GoReleaser's paraphrases by 0.030 words only (g027, g031: a signed blog post is one of each
 * one's two labelled answers), past the keep rule: 0.8 stays.
 */
export const SIGNED_RECORD_WEIGHT = 0.8;

/**
 * What the match of a release note counts for when the question asks about no version and no
 * change (documentRoles.ts): release notes, changelogs, upgrade notes and release announcements
 * name settings in passing, often by their full dotted path, and with many versions they
 * outnumber the one page that documents a setting. A question about a version or a change
 * ("upgrading from 1.17 to 1.18", "which release added ...") ranks them at full weight.
 * Words only, nDCG@10 Argo CD / cert-manager / GoReleaser: 1 -> 0.719 / 0.778 / 0.789, 0.8 ->
 * 0.719 / 0.796 / 0.793, 0.7 -> 0.719 / 0.801 / 0.794, 0.6 -> 0.721 / 0.805 / 0.794, 0.5 -> the
 * same as 0.6: 0.6, the milder end of the plateau. A signed release announcement takes both
 * weights (0.8 x 0.6); the smaller of the two alone measured the same. On the seven-corpus dev
 * suite (`--grid`, 2026-12-07) 0.4 / 0.5 / 0.6 measure alike on every corpus and 0.8 and 1 lower
 * Argo CD, cert-manager (0.820 at 1) and GoReleaser: 0.6 is still the plateau's milder end.
 */
export const RELEASE_NOTE_WEIGHT = 0.6;

/**
 * The named-entity bonus is for telling passages apart: it counts in full while the named
 * entities hold at most this share of the index's sections, and falls linearly to 0 when they
 * hold all of it (a docs repository with one catalog entity, where every passage belongs to it).
 */
export const NAMED_ENTITY_FULL_SHARE = 0.5;

/** Named-entity raw value when the named entities hold `share` (0..1) of all sections. */
export function namedEntityRaw(share: number): number {
  if (share <= NAMED_ENTITY_FULL_SHARE) return 1;
  return Math.max(0, (1 - share) / (1 - NAMED_ENTITY_FULL_SHARE));
}

/**
 * A title's graded share of one question term: BM25's term weight for one occurrence, scaled so
 * that a title of average length scores 1, a shorter one no more, a longer one less
 * (`Helm` > `Argo CD Helm chart upgrade notes for 3.4`).
 */
export function titleSaturation(titleLength: number, averageTitleLength: number): number {
  const b = FIELD_LENGTH_NORMALISATION.title;
  const norm = 1 - b + (b * titleLength) / Math.max(1, averageTitleLength);
  return Math.min(1, (BM25F_K1 + 1) / (1 + BM25F_K1 * norm));
}

/**
 * The contract's fitted constants that a measurement may vary: `npm run eval -- --grid NAME=...`
 * (bench/docsGrid.ts) ranks the dev suite with each value and reports, for every corpus, the value
 * fitted on the others (leave-one-corpus-out). Nothing that answers users sets them: a host's
 * services leave them out and the published values apply.
 */
export const TUNABLE_CONSTANTS = [
  'BM25F_K1',
  'FIELD_WEIGHTS.heading',
  'FIELD_WEIGHTS.title',
  'FIELD_WEIGHTS.context',
  'FIELD_LENGTH_NORMALISATION.body',
  'FIELD_LENGTH_NORMALISATION.heading',
  'FIELD_LENGTH_NORMALISATION.title',
  'QUESTION_HEADING_BOOST',
  'DOCUMENT_CAP',
  'MIN_MATCH',
  'IDENTIFIER_PART_CREDIT',
  'SPELLED_IDENTIFIER_PART_CREDIT',
  'TRAILING_FORM_CREDIT_MAX',
  'SIGNED_RECORD_WEIGHT',
  'RELEASE_NOTE_WEIGHT',
  'MEANING_SPAN',
  'MEANING_CURVE',
] as const;
export type TunableConstant = (typeof TUNABLE_CONSTANTS)[number];

/** Values of some {@link TUNABLE_CONSTANTS} to rank with instead of the published ones (a measurement's). */
export type RankingTuning = Partial<Record<TunableConstant, number>>;

/** The published value of a tunable constant. */
export function publishedValue(name: TunableConstant): number {
  switch (name) {
    case 'BM25F_K1':
      return BM25F_K1;
    case 'FIELD_WEIGHTS.heading':
      return FIELD_WEIGHTS.heading;
    case 'FIELD_WEIGHTS.title':
      return FIELD_WEIGHTS.title;
    case 'FIELD_WEIGHTS.context':
      return FIELD_WEIGHTS.context;
    case 'FIELD_LENGTH_NORMALISATION.body':
      return FIELD_LENGTH_NORMALISATION.body;
    case 'FIELD_LENGTH_NORMALISATION.heading':
      return FIELD_LENGTH_NORMALISATION.heading;
    case 'FIELD_LENGTH_NORMALISATION.title':
      return FIELD_LENGTH_NORMALISATION.title;
    case 'QUESTION_HEADING_BOOST':
      return QUESTION_HEADING_BOOST;
    case 'DOCUMENT_CAP':
      return DOCUMENT_CAP;
    case 'MIN_MATCH':
      return MIN_MATCH;
    case 'IDENTIFIER_PART_CREDIT':
      return IDENTIFIER_PART_CREDIT;
    case 'SPELLED_IDENTIFIER_PART_CREDIT':
      return SPELLED_IDENTIFIER_PART_CREDIT;
    case 'TRAILING_FORM_CREDIT_MAX':
      return TRAILING_FORM_CREDIT_MAX;
    case 'SIGNED_RECORD_WEIGHT':
      return SIGNED_RECORD_WEIGHT;
    case 'RELEASE_NOTE_WEIGHT':
      return RELEASE_NOTE_WEIGHT;
    case 'MEANING_SPAN':
      return MEANING_SPAN;
    case 'MEANING_CURVE':
      return MEANING_CURVE;
  }
}

/** Signals that make up a score, in the order `why[]` lists them. */
export type Signal = 'words' | 'meaning' | 'title' | 'namedEntity' | 'recency' | 'runHealth';

export const SIGNAL_WEIGHTS: Readonly<Record<Signal, number>> = Object.freeze({
  words: WORDS_WEIGHT,
  meaning: MEANING_WEIGHT,
  title: TITLE_WEIGHT,
  namedEntity: NAMED_ENTITY_WEIGHT,
  recency: RECENCY_WEIGHT,
  runHealth: RUN_HEALTH_WEIGHT,
});

/** Inverse document frequency of a term held by `df` of `n` sections; always positive. */
export function idf(df: number, n: number): number {
  return Math.log(1 + n / Math.max(1, df));
}

/** Recency raw value for a file last committed `ageMs` ago (null: no history -> 0). */
export function recencyRaw(ageMs: number | null): number {
  if (ageMs === null) return 0;
  const days = Math.max(0, ageMs) / 86_400_000;
  return Math.max(0, 1 - days / RECENCY_WINDOW_DAYS);
}

/** Where a model's cosines fall for unrelated and for related texts (its published anchors). */
export interface SimilarityAnchors {
  unrelated: number;
  related: number;
}

/**
 * Meaning's zero is the question's cosine with the section at this fraction of the workspace's
 * sections (meaning/questionAnchors.ts). Grid on Argo CD (hybrid nDCG@10) / the example: 0.80
 * 0.738 / 0.641, 0.85 0.742 / 0.641, 0.90 0.749 / 0.643, 0.95 0.749 / 0.617, 0.99 0.736 / 0.585.
 */
export const MEANING_CROWD_PERCENTILE = 0.9;
/**
 * Meaning is 1 this far above its zero. MiniLM's paraphrase pairs sit 0.3-0.5 above unrelated
 * ones; grid at the 90th percentile on Argo CD / the example: 0.35 0.752 / 0.643, 0.40
 * 0.749 / 0.643, 0.45 0.739 / 0.646, 0.50 0.738 / 0.628. BEIR SciFact: 0.35 0.728, 0.40 0.732.
 * Hybrid on the seven-corpus dev suite (`--grid` 0.3-0.5 with `--embeddings local`, 2026-12-07):
 * 0.4 is the value fitted without each corpus but the four-repository set (without it 0.3, on
 * Scrapy's 0.904 and rclone's 0.860, which costs the set 0.009); GoReleaser, rclone and Scrapy are
 * best at 0.3, Babel at 0.45, Argo CD, cert-manager and the set at 0.4 or level with it.
 */
export const MEANING_SPAN = 0.4;
/**
 * The anchors of a question whose crowd sits at cosine `crowd` (meaning/questionAnchors.ts):
 * 0 there, 1 `span` above it, to three decimals (they are shown in why[], and say no more).
 */
export function crowdAnchors(crowd: number, span: number = MEANING_SPAN): SimilarityAnchors {
  const unrelated = round3(crowd);
  return { unrelated, related: round3(unrelated + span) };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Sections whose cosines estimate the percentile: the 90th of 512 is within ~1.3 percentile points. */
export const MEANING_SAMPLE = 512;
/** Fewer sampled sections with vectors than this: the model's own anchors. */
export const MEANING_MIN_SAMPLE = 100;

/**
 * The curve of workspace_context's meaning term: meaning = meaningRaw(cosine) ^ MEANING_CURVE, so
 * a passage halfway between the question's crowd and "fully related" earns 0.59 of the weight
 * rather than 0.50, and the few sections far above the crowd are told apart from the many
 * somewhat above it less sharply (the top of a linear map crowds the answer with its near
 * neighbours). Concave, still 0 at the crowd and 1 at the top. Hybrid nDCG@10, Argo CD /
 * BEIR SciFact / the example: 1 (linear) 0.761 / 0.732 / 0.653, 0.9 0.772 / - / -, 0.8 0.772 /
 * 0.733 / 0.659, 0.75 0.772 / 0.732 / 0.663, 0.7 0.771 / 0.732 / 0.663, 0.6 0.764 / - / -,
 * 0.5 0.757, 0.3 0.756. Words only: unchanged. Hybrid on the seven-corpus dev suite (`--grid`
 * 0.6 / 0.75 / 0.9 / 1 with `--embeddings local`, 2026-12-07): 0.75 is the value fitted without
 * every corpus; linear (1) lowers six of seven. get_context's meaning (engine sectionMeaning,
 * textSimilarity.ts) stays linear: its bars are calibrated on it.
 */
export const MEANING_CURVE = 0.75;

/**
 * The meaning half of a passage's match (contract 2026-12-04.2): meaning adds to what the
 * passage's words show and never takes it away. `cosineTerm` is {@link meaningTerm} of its
 * cosine, `words` its words value (0..1), `wordShare` the share of the question's weight in plain
 * words rather than identifiers (1 for a question with no identifier):
 *
 *   meaning = words + wordShare x max(0, cosineTerm - words)
 *
 * So 0.60 x words + 0.40 x meaning is never below the passage's words alone (a passage the words
 * rank first is only passed by one that meaning lifts, never pulled down by a cosine under the
 * question's crowd), and an embedding, which reads sentences, adds nothing for the part of a
 * question that is a key path, a flag or a name: a question that is only identifiers ranks as
 * on words. The 0.60 / 0.40 weights are unchanged.
 */
export function hybridMeaning(cosineTerm: number, words: number, wordShare: number): number {
  return words + wordShare * Math.max(0, cosineTerm - words);
}

/** workspace_context's meaning term from a cosine: {@link meaningRaw} on the question's anchors, curved by MEANING_CURVE (or a measurement's curve). */
export function meaningTerm(cosine: number, anchors: SimilarityAnchors, curve: number = MEANING_CURVE): number {
  return meaningRaw(cosine, anchors) ** curve;
}

/** Cosine as is: for models with no anchors of their own. */
export const PLAIN_COSINE: SimilarityAnchors = { unrelated: 0, related: 1 };

/**
 * Meaning raw value from a cosine: 0 at the model's "unrelated" anchor, 1 at its "related" one,
 * linear between and clamped to 0..1, so "as close as a paraphrase" counts the same for every
 * model (all-MiniLM-L6-v2: 0.10 and 0.60; USE lite: 0.30 and 0.70; localModels.ts).
 */
export function meaningRaw(cosine: number, anchors: SimilarityAnchors = PLAIN_COSINE): number {
  const span = anchors.related - anchors.unrelated;
  if (!(span > 0)) return Math.min(1, Math.max(0, cosine));
  return Math.min(1, Math.max(0, (cosine - anchors.unrelated) / span));
}
