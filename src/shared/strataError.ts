/** An error the user can read and act on: `message` says what happened and what to do. */
export class StrataError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'StrataError';
  }
}
