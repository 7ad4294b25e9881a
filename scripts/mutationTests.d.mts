// Types of scripts/mutationTests.mjs for vitest.stryker.config.ts.
export declare const SPAWNS_BUILT_CLI: readonly string[];
export declare const ABOVE_THE_ENGINE: readonly string[];
export declare function testFilesLeftOut(group: string): string[];
export declare const ONLY_TESTS: Readonly<Record<string, readonly string[]>>;
export declare function testFilesOnly(group: string): readonly string[] | undefined;
