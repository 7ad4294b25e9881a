// Which unit test files a mutation run leaves out, per group (scripts/mutationGroups.mjs). Read by
// vitest.stryker.config.ts through MUTATE_GROUP, not by Stryker's `testFiles`: with `testFiles`,
// Stryker 9.6.1 activates static mutants (module-level constants and patterns) only after their
// module has loaded, so every one of them is reported as surviving
// (https://github.com/stryker-mutator/stryker-js/issues/6144).

/**
 * Unit test files left out of mutation runs, with the reason. Stryker instruments the TypeScript
 * sources that vitest imports; these files drive the CLI as a child process over the esbuild
 * bundle in `dist/`, which holds no mutant, so they cannot kill one and only cost time (each
 * takes 5-19 s on this 2-core machine).
 */
export const SPAWNS_BUILT_CLI = [
  'cliChat.test.ts', // spawns dist/cli.js chat
  'cliOptions.test.ts', // spawns dist/cli.js for every flag and exit code
  'cliReplay.test.ts', // spawns dist/cli.js replay
  'crashTest.test.ts', // spawns dist/cli.js replay and SIGKILLs it (19 s)
  'replayResume.test.ts', // spawns dist/cli.js replay --resume
  'cliImport.test.ts', // spawns dist/cli.js import
  'layering.test.ts', // runs dependency-cruiser over the import graph; no engine code runs
];

/**
 * Test files of the layers above the engine, left out when an engine group is scored: they reach
 * engine code only through a whole Task session, an editor controller or a language server, so
 * a surviving engine mutant would pay for all of them (about 40 s on this machine, and a static
 * mutant, one in a module-level table or pattern, runs every test it can reach). The engine's
 * own tests (unit, property, replay of the real sessions) stay. Leaving tests out can only lose
 * kills, so an engine group's score is a lower bound of what the whole suite catches. The
 * adapter groups keep every file: the LSP adapter, say, is tested only by lspTools.
 */
export const ABOVE_THE_ENGINE = [
  'archiveStatus.test.ts', // the extension's fallback-store status
  'badInputs.test.ts', // the CLI's replay path over extreme sessions (25 s under Stryker)
  'chatController.test.ts', // the webview controller over a whole Task session
  'lspTools.test.ts', // spawns typescript-language-server
  'taskLoop.test.ts', // whole Task sessions over the local Messages API server
  'taskResend.test.ts', // the same, edit and resend
  'taskTerminal.test.ts', // the Task's terminal environment
  'toolsCommands.test.ts', // the Task's shell tools
];

/**
 * The safety groups of src/task run only the unit tests of their files: the redactor, the path
 * checks, the approval gate and the stream filter run in every session, so each of their
 * surviving mutants (and each static one, a module-level pattern, which runs every test it can
 * reach) would otherwise pay for every whole-session test file (taskLoop, taskStopReasons,
 * taskRedaction ...: a minute or more a mutant on this loaded machine). The unit tests are
 * written to kill on their own; a score measured so is a lower bound of the whole suite's. The
 * other src/task groups are narrowed the same way to the test files that exercise their files
 * directly (the tools over a temp workspace, the loop through its session tests).
 */
export const ONLY_TESTS = {
  'task-redaction': ['secretRedactor.test.ts', 'secretRedactorEdges.test.ts', 'redaction.test.ts', 'importRedaction.test.ts'],
  'task-confinement': ['workspacePath.test.ts', 'confinePath.test.ts', 'toolsConfinement.test.ts', 'toolsProtectedWrites.test.ts'],
  'task-approval': ['runToolCall.test.ts', 'approvalBroker.test.ts', 'chatHostPieces.test.ts', 'toolsProtectedWrites.test.ts'],
  'task-stops': ['stopNotices.test.ts', 'protocolStreamFilter.test.ts'],
  // The chat controller over a scripted Task session (chatControllerTurns/Sessions) instead of the
  // real Task loop: with chatController, sessionRestore, condenseSaving ... a mutant of the
  // controller costs up to a minute (a first full run went at about 10 mutants a minute).
  'extension-chat': [
    'chatControllerTurns.test.ts',
    'chatControllerSessions.test.ts',
    'chatHostPieces.test.ts',
    'openArchivedSession.test.ts',
    'stopQuestion.test.ts',
    'webviewRouter.test.ts',
    'webviewMessages.test.ts',
    'raceAbort.test.ts',
    'debouncer.test.ts',
    'disposableStore.test.ts',
  ],
  // the tools over a real temp workspace (test/support/toolWorkspace.ts), not through a session
  'task-tools': ['tools.test.ts', 'toolsEdges.test.ts', 'toolDefinitions.test.ts', 'applyEditBlocksEdges.test.ts', 'globMatcherEdges.test.ts', 'toolsSearch.test.ts', 'toolsHang.test.ts', 'toolsConfinement.test.ts', 'toolsProtectedWrites.test.ts', 'toolsTracker.test.ts', 'toolsCommands.test.ts', 'terminalText.test.ts', 'runToolCall.test.ts', 'confinePath.test.ts', 'proposedContent.test.ts'],
  // the language tools over a fake and a real language server, list_definitions over a temp workspace
  'task-lsp': [
    'lspTarget.test.ts',
    'lspToolAnswers.test.ts',
    'formatDiagnostics.test.ts',
    'languageProblems.test.ts',
    'listDefinitions.test.ts',
    'lspTools.test.ts',
    'toolDefinitions.test.ts',
    'tools.test.ts',
    'toolsConfinement.test.ts',
  ],
  // the small files' own unit tests (taskPorts.test.ts covers recallTool, modelSummarizer,
  // turnReport and workspaceMentionSources, which whole sessions reach too)
  'task-rest': ['environment.test.ts', 'environmentEdges.test.ts', 'fileContextTrackerEdges.test.ts', 'taskPorts.test.ts', 'pricingTable.test.ts', 'toolDefinitions.test.ts', 'mentions.test.ts', 'mentionItems.test.ts', 'modelProfiles.test.ts', 'pricing.test.ts', 'stopNotices.test.ts', 'toolsTracker.test.ts', 'anthropicModelClient.test.ts', 'anthropicModelClientEdges.test.ts', 'streamedAnswer.test.ts'],
  // the loop is tested only through whole sessions over the local Messages API server; the editor
  // controller's files (chatController, archiveStatus ...) reach it the same way and are left out
  'task-loop': ['taskLoop.test.ts', 'taskLoopLimits.test.ts', 'taskProtocol.test.ts', 'taskRedaction.test.ts', 'taskResend.test.ts', 'taskStopReasons.test.ts', 'taskTerminal.test.ts', 'modelWaits.test.ts', 'condenseSaving.test.ts', 'sessionRestore.test.ts', 'taskLoopEdges.test.ts', 'taskLoopFailures.test.ts', 'taskOwnParts.test.ts'],
};

/** The only test files (in test/unit) a run of `group` loads, or undefined for all but those left out. */
export function testFilesOnly(group) {
  return ONLY_TESTS[group];
}

/** Test file names (in test/unit) a run of `group` leaves out. */
export function testFilesLeftOut(group) {
  if (group.startsWith('engine-')) return [...SPAWNS_BUILT_CLI, ...ABOVE_THE_ENGINE];
  return SPAWNS_BUILT_CLI;
}
