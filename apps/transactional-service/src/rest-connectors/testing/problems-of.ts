import { BadRequestException } from '@nestjs/common';

/** The messages of the 400 that `run` throws; any other outcome fails the spec (this file is built with the app: no jest globals). */
export function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (!(error instanceof BadRequestException)) throw error;
    return (error.getResponse() as { message: string[] }).message;
  }
  throw new Error('expected a 400');
}
