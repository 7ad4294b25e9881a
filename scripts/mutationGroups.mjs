// The groups `npm run mutate` scores one after another, each with its own Stryker JSON report and
// incremental file under reports/mutation/<group>/, so a partial run keeps what it finished and
// `npm run mutate:score` merges whatever groups have a report. Together the globs cover every
// file of src/engine, src/adapters and src/task, and the files of src/extension that do not import
// vscode (the rest run only inside VS Code), exactly once; scripts/mutationScore.mjs names any
// source file that no report holds.

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

// The assistant around the engine, safety paths first (issue 20: 100% of their non-equivalent
// mutants), then the rest. Paths relative to src/task.
const TASK_GROUPS = {
  // what leaves the machine: secrets replaced before a text enters the engine
  'task-redaction': ['secretRedactor', 'redaction'],
  // where a tool may read and write: workspace confinement, links, protected (code-running) paths
  'task-confinement': ['tools/confinePath', 'tools/workspacePath', 'tools/protectedPaths'],
  // what runs only with the user's yes (with src/extension/approvalBroker.ts, see below)
  'task-approval': ['tools/runToolCall', 'tools/tool'],
  // how an answer ended, and what of it a user sees
  'task-stops': ['stopNotices', 'protocolStreamFilter'],
  'task-tools': ['tools/applyEditBlocks', 'tools/editFile', 'tools/writeFile', 'tools/readFile', 'tools/listFiles', 'tools/searchFiles', 'tools/globMatcher', 'tools/walkWorkspace', 'tools/executeCommand', 'tools/toolLimits', 'tools/toolRegistry'],
  'task-lsp': ['tools/lspTools', 'tools/lspTarget', 'tools/listDefinitions', 'languageProblems'],
  'task-loop': ['task'],
};
// src/extension: only the files that import no vscode (plain Node runs them); a file that does is
// not mutated (scripts/mutationScore.mjs lists it). The approval broker is in 'task-approval'.
const EXTENSION_GROUPS = {
  'extension-chat': ['chatController', 'taskEventMessages', 'stopQuestion', 'webviewRouter', 'webviewChannel', 'webviewHtml', 'raceAbort', 'debouncer', 'disposableStore'],
  'extension-settings': ['clampSettings', 'settingsHandler', 'settingsManifest', 'settingsPanelModel', 'settingsSpec', 'settingsTable', 'settingsTarget'],
  'extension-rest': ['archiveStatus', 'archiveTreeModel', 'chatStatePath', 'commandIds', 'contextFigures', 'diagnosticsText', 'exchangeMarkdown', 'importSummary', 'openArchivedSession', 'proposedContent', 'recordingModelClient', 'sessionExport', 'sessionHistory', 'sessionMemory', 'terminalHistory', 'vscodeLanguageConversions', 'zodJitless'],
};

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
  ...Object.fromEntries(Object.entries(TASK_GROUPS).map(([group, names]) => [group, files('src/task', names)])),
  'task-approval': [...files('src/task', TASK_GROUPS['task-approval']), 'src/extension/approvalBroker.ts'],
  // the ports, events, mentions, pricing, profiles ...: everything of src/task not named above
  'task-rest': ['src/task/**/*.ts', ...except('src/task', named(TASK_GROUPS))],
  ...Object.fromEntries(Object.entries(EXTENSION_GROUPS).map(([group, names]) => [group, files('src/extension', names)])),
};

/** Where a group's reports go. */
export const groupDir = (group) => `reports/mutation/${group}`;
