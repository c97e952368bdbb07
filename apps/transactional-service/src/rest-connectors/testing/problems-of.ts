import { InvalidInputError } from '@app/domain';

/** The problems of the invalid input (a 400) that `run` throws; any other outcome fails the spec (this file is built with the app: no jest globals). */
export function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return error.problems;
  }
  throw new Error('expected a 400');
}
