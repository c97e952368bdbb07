import { BadRequestException } from '@nestjs/common';

/** The messages of the 400 that `run` throws; any other outcome fails the spec. */
export function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { message: string[] }).message;
  }
  throw new Error('expected a 400');
}
