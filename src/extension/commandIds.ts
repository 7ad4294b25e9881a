/** The archive's commands (archiveCommands.ts handles them). */
export const ARCHIVE_COMMAND_IDS = ['strata.openSession', 'strata.archive.refresh', 'strata.archive.search', 'strata.archive.openExchange', 'strata.archive.deleteSession', 'strata.archive.exportSession'] as const;
export type ArchiveCommandId = (typeof ARCHIVE_COMMAND_IDS)[number];

/** Every command in package.json `contributes.commands`; test/unit/settingsManifest.test.ts checks the two lists agree. */
export const COMMAND_IDS = ['strata.newSession', 'strata.condenseNow', 'strata.setApiKey', 'strata.showLastRequest', 'strata.openSettings', 'strata.openSettingsEditor', 'strata.importSession', ...ARCHIVE_COMMAND_IDS] as const;
export type CommandId = (typeof COMMAND_IDS)[number];
