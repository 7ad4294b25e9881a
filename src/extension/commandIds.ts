/** Every command in package.json `contributes.commands`; test/unit/settingsManifest.test.ts checks the two lists agree. */
export const COMMAND_IDS = ['strata.newSession', 'strata.condenseNow', 'strata.setApiKey', 'strata.showLastRequest', 'strata.openSettings', 'strata.openSettingsEditor', 'strata.importSession'] as const;
export type CommandId = (typeof COMMAND_IDS)[number];
