/** Raised when the environment is unusable; its message is the one line printed before exiting. */
export class ConfigValidationError extends Error {
  override readonly name = 'ConfigValidationError';
}
