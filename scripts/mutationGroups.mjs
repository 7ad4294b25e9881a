// The groups `npm run mutate` scores one after another, each with its own Stryker JSON report and
// incremental file under reports/mutation/<group>/, so a partial run keeps what it finished and
// `npm run mutate:score` merges whatever groups have a report. Together the globs cover every
// file of src/engine and src/adapters exactly once; scripts/mutationScore.mjs names any source
// file that no report holds.

const files = (folder, names) => names.map((name) => `${folder}/${name}.ts`);
const except = (folder, names) => names.map((name) => `!${folder}/${name}.ts`);

// Small groups, in the order `npm run mutate` runs them (most important first): on a loaded
// 2-core machine a mutant of the engine costs 5-60 s (its covering tests include the task-loop
// and real-session replay tests), so a group of a few hundred mutants already takes an hour.
const ENGINE_GROUPS = {
  'engine-retrieval': ['retrieval', 'outputMasking'],
  'engine-layers': ['narrative', 'condenser', 'relayer'],
  'engine-requestLayout': ['requestLayout'],
  'engine-fileViews': ['fileViews'],
  'engine-contextEngine': ['contextEngine', 'budgetFit'],
  // what the engine archives and resumes from
  'engine-recording': ['archiveWriteQueue', 'exchangeRecorder', 'archiveBlock', 'resume', 'checkpoints', 'supersessions'],
  // how an exchange is rendered, indexed and summarised
  'engine-exchanges': ['liveExchange', 'toolOutput', 'exchangeFacts', 'referenceIndex', 'extractiveSummarizer'],
};
const ADAPTER_GROUPS = {
  'adapters-archive': ['sqliteArchiveStore', 'sqliteArchiveSchema', 'storedBody'],
  'adapters-model': ['tiktokenTokenizer', 'anthropicModelClient', 'streamedAnswer'],
  // the plain-file archive and the session files
  'adapters-files': ['jsonlArchiveStore', 'lineTail', 'jsonlWriter', 'archivedBodySchema', 'sessionFileReader', 'sessionRecorder', 'importedSessionReader', 'importCandidates'],
  // adapters that start processes (a language server, a shell, ripgrep): slow mutants
  'adapters-processes': ['lspLanguageService', 'lspConversions', 'lspProcess', 'languageServerSpec', 'shellCommandRunner', 'ripgrepSearcher'],
};
const named = (groups) => Object.values(groups).flat();

/** Group name -> Stryker `mutate` globs. */
export const MUTATION_GROUPS = {
  ...Object.fromEntries(Object.entries(ENGINE_GROUPS).map(([group, names]) => [group, files('src/engine', names)])),
  'engine-text': ['src/engine/text/**/*.ts'],
  // derive/ is 1,600 mutants of heuristics tested on large texts: one group per file
  'engine-derive-actions': ['src/engine/derive/exchangeActions.ts'],
  'engine-derive-entities': ['src/engine/derive/entities.ts'],
  'engine-derive-describe': ['src/engine/derive/describeExchange.ts'],
  'engine-rest': ['src/engine/*.ts', ...except('src/engine', named(ENGINE_GROUPS))],
  ...Object.fromEntries(Object.entries(ADAPTER_GROUPS).map(([group, names]) => [group, files('src/adapters', names)])),
  // the small ones: workspace, search, fetch, clock, logs
  'adapters-rest': ['src/adapters/**/*.ts', ...except('src/adapters', named(ADAPTER_GROUPS))],
};

/** Where a group's reports go. */
export const groupDir = (group) => `reports/mutation/${group}`;
