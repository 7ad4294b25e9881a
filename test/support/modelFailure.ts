import { expect } from 'vitest';
import { ModelError } from '../../src/task/modelClient';

/** The ModelError `promise` rejects with; fails the test when it resolves or rejects with something else. */
export async function modelFailure(promise: Promise<unknown>): Promise<ModelError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelError);
  return err as ModelError;
}
