import { StrataError } from '../../src/engine/ports';

type ErrorClass<E> = abstract new (...args: never[]) => E;

/**
 * The error `run` throws, of class `kind` (StrataError unless told); fails the test when it
 * throws nothing or something else.
 */
export function thrown(run: () => unknown): StrataError;
export function thrown<E extends Error>(run: () => unknown, kind: ErrorClass<E>): E;
export function thrown(run: () => unknown, kind: ErrorClass<Error> = StrataError): Error {
  try {
    run();
  } catch (error) {
    if (error instanceof kind) return error;
    throw error;
  }
  throw new Error(`expected a ${kind.name}`);
}
