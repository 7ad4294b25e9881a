import { StrataError } from '../../src/engine/ports';

/** The StrataError `run` throws; fails the test when it throws nothing or something else. */
export function thrown(run: () => unknown): StrataError {
  try {
    run();
  } catch (error) {
    if (error instanceof StrataError) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}
